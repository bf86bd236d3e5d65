import { randomUUID } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { SuspensionsInKitProjection1796410000000 } from '../1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CHAT_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding suspensions in `chat_member.suspended`, the switch copies them
 * into the kit's `kit_member_suspension`, and what a replica of the previous release still writes
 * to the column during the roll (a suspension, an unsuspension, an erasure) reaches the kit's
 * table; its other writes (a name and picture, a deleted member's stand-in) change nothing there.
 */
describe('chat-service migration: SuspensionsInKitProjection, on a database set up before it', () => {
  let db: TestDatabase;
  const dataSource = (migrations: (new () => MigrationInterface)[]) =>
    new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false });

  beforeAll(async () => {
    db = await createTestDatabase('chat_suspension_switch');
  });
  afterAll(async () => {
    await db.drop();
  });

  it("copies every suspended member into the kit table, and carries the previous release's writes there", async () => {
    const before = dataSource([
      ...KIT_MIGRATIONS,
      ...CHAT_MIGRATIONS.filter((m) => m !== SuspensionsInKitProjection1796410000000 && m !== PairsInKitProjection1796430000000),
    ]);
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const [ann, ben, cleo, dan, eve, standIn] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await before.query(
      `INSERT INTO chat_member (user_id, name, suspended, updated_at) VALUES
         ($1, 'Ann', true, '2026-11-01T10:00:00Z'), ($2, 'Ben', false, '2026-11-02T10:00:00Z'), ($3, NULL, true, '2026-11-03T10:00:00Z')`,
      [ann, ben, cleo],
    );
    await before.destroy();

    const after = dataSource([
      ...KIT_MIGRATIONS,
      ...projectionMigrations(['suspension']),
      ...CHAT_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
    ]);
    await after.initialize();
    try {
      expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
        'MemberSuspensionProjection1796401000000',
        'SuspensionsInKitProjection1796410000000',
      ]);
      const suspended = async () =>
        ((await after.query('SELECT user_id FROM kit_member_suspension')) as { user_id: string }[]).map((r) => r.user_id).sort();
      expect(await after.query('SELECT user_id, suspended_at FROM kit_member_suspension ORDER BY suspended_at')).toEqual([
        { user_id: ann, suspended_at: new Date('2026-11-01T10:00:00Z') },
        { user_id: cleo, suspended_at: new Date('2026-11-03T10:00:00Z') },
      ]);

      // The previous release's statements (MemberRepository's saveSuspension, saveProfile, addStandIn, forget).
      const saveSuspension = (userId: string, value: boolean) =>
        after.query(
          `INSERT INTO chat_member (user_id, suspended) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`,
          [userId, value],
        );
      const saveProfile = (userId: string, name: string) =>
        after.query(
          `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id) DO UPDATE
             SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, version = EXCLUDED.version, updated_at = now()
             WHERE chat_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
          [userId, name, null, 1],
        );
      await saveSuspension(ben, true);
      await saveSuspension(dan, true);
      await saveSuspension(ann, false);
      expect(await suspended()).toEqual([ben, cleo, dan].sort());

      // A suspension the new release applied (the kit's table only), lifted by the previous release.
      await after.query(`INSERT INTO kit_member_suspension (user_id, suspended_at) VALUES ($1, now())`, [eve]);
      await saveProfile(eve, 'Eve');
      await saveProfile(ben, 'Ben');
      await after.query('INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1::uuid, $2, NULL, $3)', [
        standIn,
        'Unknown User',
        2_147_483_647,
      ]);
      expect(await suspended()).toEqual([ben, cleo, dan, eve].sort());
      await saveSuspension(eve, false);
      await after.query('DELETE FROM chat_member WHERE user_id = $1::uuid', [cleo]);
      expect(await suspended()).toEqual([ben, dan].sort());
      expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
    } finally {
      await after.destroy();
    }
  });
});
