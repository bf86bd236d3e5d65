import { randomUUID } from 'node:crypto';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describeSuspensionsInKitSwitch } from '@mate/server-kit/testing';
import { SuspensionsInKitProjection1796410000000 } from '../1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CHAT_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding suspensions in `chat_member.suspended`, the switch copies them
 * into the kit's `kit_member_suspension`, and what a replica of the previous release still writes
 * to the column during the roll (a suspension, an unsuspension, an erasure) reaches the kit's
 * table; its other writes (a name and picture, a deleted member's stand-in) change nothing there.
 * The scenario is the kit's (describeSuspensionsInKitSwitch); the previous release's statements
 * are chat's own.
 */
describeSuspensionsInKitSwitch({
  service: 'chat-service',
  database: 'chat_suspension_switch',
  table: 'chat_member',
  before: [
    ...KIT_MIGRATIONS,
    ...CHAT_MIGRATIONS.filter(
      (m) => m !== SuspensionsInKitProjection1796410000000 && m !== PairsInKitProjection1796430000000,
    ),
  ],
  after: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...CHAT_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
  ],
  // The previous release's statements (MemberRepository's saveSuspension, saveProfile, addStandIn, forget).
  saveSuspension: (db, userId, value) =>
    db.query(
      `INSERT INTO chat_member (user_id, suspended) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`,
      [userId, value],
    ),
  saveProfile: (db, userId, name) =>
    db.query(
      `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE
         SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, version = EXCLUDED.version, updated_at = now()
         WHERE chat_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
      [userId, name, null, 1],
    ),
  otherWrites: (db) =>
    db.query(
      'INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1::uuid, $2, NULL, $3)',
      [randomUUID(), 'Unknown User', 2_147_483_647],
    ),
});
