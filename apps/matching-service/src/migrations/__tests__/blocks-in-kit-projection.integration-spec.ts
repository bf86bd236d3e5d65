import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describeBlockedPairsInKitSwitch } from '@mate/server-kit/testing';
import { BlocksInKitProjection1796600000000 } from '../1796600000000-BlocksInKitProjection';
import { MATCHING_MIGRATIONS } from '..';

describeBlockedPairsInKitSwitch({
  service: 'matching-service',
  database: 'matching_blocks_switch',
  before: [...KIT_MIGRATIONS, ...MATCHING_MIGRATIONS.filter((m) => m !== BlocksInKitProjection1796600000000)],
  after: [...KIT_MIGRATIONS, ...projectionMigrations(['pair']), ...MATCHING_MIGRATIONS],
  applied: ['PairStateProjection1796402000000', 'EndedMatchProjection1796403000000', 'BlocksInKitProjection1796600000000'],
});
