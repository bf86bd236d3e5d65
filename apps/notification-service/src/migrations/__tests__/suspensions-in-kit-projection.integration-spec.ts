import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describeSuspensionsInKitSwitch } from '@mate/server-kit/testing';
import { SuspensionsInKitProjection1796410000000 } from '../1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796420000000 } from '../1796420000000-PairsInKitProjection';
import { NOTIFICATION_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding suspensions in `notification_member.suspended`, the switch
 * copies them into the kit's `kit_member_suspension`, and what a replica of the previous release
 * still writes to the column during the roll (a suspension, an unsuspension, an erasure) reaches
 * the kit's table; its other writes (a name) change nothing there. The scenario is the kit's
 * (describeSuspensionsInKitSwitch); the previous release's statements are notification's own.
 */
describeSuspensionsInKitSwitch({
  service: 'notification-service',
  database: 'notification_suspension_switch',
  table: 'notification_member',
  before: [
    ...KIT_MIGRATIONS,
    ...NOTIFICATION_MIGRATIONS.filter(
      (m) => m !== SuspensionsInKitProjection1796410000000 && m !== PairsInKitProjection1796420000000,
    ),
  ],
  after: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...NOTIFICATION_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796420000000),
  ],
  // The previous release's statements (PushRepository's saveSuspension, saveMemberName, eraseMember).
  saveSuspension: (db, userId, value) =>
    db.query(
      `INSERT INTO notification_member (user_id, suspended) VALUES ($1::uuid, $2)
       ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`,
      [userId, value],
    ),
  saveProfile: (db, userId, name) =>
    db.query(
      `INSERT INTO notification_member (user_id, name, version) VALUES ($1::uuid, $2, 1)
       ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, version = EXCLUDED.version, updated_at = now()
         WHERE notification_member.version <= EXCLUDED.version OR EXCLUDED.version = 0`,
      [userId, name],
    ),
});
