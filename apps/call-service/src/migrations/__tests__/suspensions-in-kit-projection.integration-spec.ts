import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describeSuspensionsInKitSwitch } from '@mate/server-kit/testing';
import { SuspensionsInKitProjection1796410000000 } from '../1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CALL_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding suspensions in `call_member.suspended`, the switch copies them
 * into the kit's `kit_member_suspension`, and what a replica of the previous release still writes
 * to the column during the roll (a suspension, an unsuspension, an erasure) reaches the kit's
 * table; its other writes (a name and picture) change nothing there. The scenario is the kit's
 * (describeSuspensionsInKitSwitch); the previous release's statements are call's own.
 */
describeSuspensionsInKitSwitch({
  service: 'call-service',
  database: 'call_suspension_switch',
  table: 'call_member',
  before: [
    ...KIT_MIGRATIONS,
    ...CALL_MIGRATIONS.filter(
      (m) => m !== SuspensionsInKitProjection1796410000000 && m !== PairsInKitProjection1796430000000,
    ),
  ],
  after: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...CALL_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
  ],
  // The previous release's statements (MemberRepository's saveSuspension, saveProfile; its forget, a DELETE, is the kit scenario's).
  saveSuspension: (db, userId, value) =>
    db.query(
      `INSERT INTO call_member (user_id, suspended) VALUES ($1::uuid, $2::boolean)
       ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`,
      [userId, value],
    ),
  saveProfile: (db, userId, name) =>
    db.query(
      `INSERT INTO call_member (user_id, name, version, profile_picture) VALUES ($1::uuid, $2, 1, NULL)
       ON CONFLICT (user_id) DO UPDATE
         SET name = EXCLUDED.name, version = EXCLUDED.version, profile_picture = EXCLUDED.profile_picture, updated_at = now()
         WHERE call_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
      [userId, name],
    ),
});
