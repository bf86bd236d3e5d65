import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describeBlockedPairsInKitSwitch } from '@mate/server-kit/testing';
import { BlocksInKitProjection1796420000000 } from '../1796420000000-BlocksInKitProjection';
import { PROFILE_MIGRATIONS } from '..';

describeBlockedPairsInKitSwitch({
  service: 'profile-service',
  database: 'profile_blocks_switch',
  before: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...PROFILE_MIGRATIONS.filter((m) => m !== BlocksInKitProjection1796420000000),
  ],
  after: [...KIT_MIGRATIONS, ...projectionMigrations(['suspension', 'pair']), ...PROFILE_MIGRATIONS],
  applied: ['PairStateProjection1796402000000', 'EndedMatchProjection1796403000000', 'BlocksInKitProjection1796420000000'],
});
