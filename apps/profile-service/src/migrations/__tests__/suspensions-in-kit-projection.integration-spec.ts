import { randomUUID } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { SuspensionsInKitProjection1796410000000 } from '../1796410000000-SuspensionsInKitProjection';
import { BlocksInKitProjection1796420000000 } from '../1796420000000-BlocksInKitProjection';
import { PROFILE_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding suspensions in `suspended_member`, the switch copies them into
 * the kit's `kit_member_suspension`, and the old name stays a view of it through which a replica of
 * the previous release reads and writes the kit's table until a later deploy drops it.
 */
describe('profile-service migration: SuspensionsInKitProjection, on a database set up before it', () => {
  let db: TestDatabase;
  const dataSource = (migrations: (new () => MigrationInterface)[]) =>
    new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false });

  beforeAll(async () => {
    db = await createTestDatabase('profile_suspension_switch');
  });
  afterAll(async () => {
    await db.drop();
  });

  it('copies every suspension into the kit table, and the old name reads and writes it', async () => {
    const before = dataSource([
      ...KIT_MIGRATIONS,
      ...PROFILE_MIGRATIONS.filter((m) => m !== SuspensionsInKitProjection1796410000000 && m !== BlocksInKitProjection1796420000000),
    ]);
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const [ann, ben, cleo] = [randomUUID(), randomUUID(), randomUUID()];
    await before.query(
      `INSERT INTO suspended_member (user_id, suspended_at) VALUES ($1, '2026-11-01T10:00:00Z'), ($2, '2026-11-02T10:00:00Z')`,
      [ann, ben],
    );
    await before.destroy();

    const after = dataSource([
      ...KIT_MIGRATIONS,
      ...projectionMigrations(['suspension']),
      ...PROFILE_MIGRATIONS.filter((m) => m !== BlocksInKitProjection1796420000000),
    ]);
    await after.initialize();
    try {
      expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
        'MemberSuspensionProjection1796401000000',
        'SuspensionsInKitProjection1796410000000',
      ]);
      const kitRows = () => after.query('SELECT user_id, suspended_at FROM kit_member_suspension ORDER BY suspended_at');
      expect(await kitRows()).toEqual([
        { user_id: ann, suspended_at: new Date('2026-11-01T10:00:00Z') },
        { user_id: ben, suspended_at: new Date('2026-11-02T10:00:00Z') },
      ]);

      // The previous release's statements, through the view.
      await after.query(
        `INSERT INTO suspended_member (user_id, suspended_at) VALUES ($1, '2026-11-03T10:00:00Z')
         ON CONFLICT (user_id) DO UPDATE SET suspended_at = EXCLUDED.suspended_at`,
        [cleo],
      );
      await after.query('DELETE FROM suspended_member WHERE user_id = $1', [ann]);
      expect(await kitRows()).toEqual([
        { user_id: ben, suspended_at: new Date('2026-11-02T10:00:00Z') },
        { user_id: cleo, suspended_at: new Date('2026-11-03T10:00:00Z') },
      ]);
      expect(await after.query('SELECT 1 FROM suspended_member WHERE user_id = $1::uuid', [ben])).toHaveLength(1);
      expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
    } finally {
      await after.destroy();
    }
  });
});
