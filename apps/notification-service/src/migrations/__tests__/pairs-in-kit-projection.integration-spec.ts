import { randomUUID } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { orderedPairOf } from '@mate/contracts';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { PairsInKitProjection1796420000000 } from '../1796420000000-PairsInKitProjection';
import { NOTIFICATION_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding pair states in `notification_pair`, the switch copies them into
 * the kit's `kit_pair` (a blocked pair as blocked by both: who blocks was never kept here), and
 * what a replica of the previous release still writes to the old table during the roll (a pair
 * event's state, an erasure) reaches the kit's table.
 */
describe('notification-service migration: PairsInKitProjection, on a database set up before it', () => {
  let db: TestDatabase;
  const dataSource = (migrations: (new () => MigrationInterface)[]) =>
    new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false });

  beforeAll(async () => {
    db = await createTestDatabase('notification_pairs_switch');
  });
  afterAll(async () => {
    await db.drop();
  });

  it("copies every pair state into the kit table, and carries the previous release's writes there", async () => {
    const before = dataSource([
      ...KIT_MIGRATIONS,
      ...projectionMigrations(['suspension']),
      ...NOTIFICATION_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796420000000),
    ]);
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const [ann, ben, cleo, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const annBen = orderedPairOf(ann, ben);
    const benCleo = orderedPairOf(ben, cleo);
    await before.query(
      `INSERT INTO notification_pair (member_a, member_b, blocked, version) VALUES ($1, $2, true, 3), ($3, $4, false, 7)`,
      [...annBen, ...benCleo],
    );
    await before.destroy();

    const after = dataSource([...KIT_MIGRATIONS, ...projectionMigrations(['suspension', 'pair']), ...NOTIFICATION_MIGRATIONS]);
    await after.initialize();
    try {
      expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
        'PairStateProjection1796402000000',
        'EndedMatchProjection1796403000000',
        'PairsInKitProjection1796420000000',
      ]);
      const kitRow = async (x: string, y: string) => {
        const [a, b] = orderedPairOf(x, y);
        const rows = await after.query('SELECT blocked_by, version FROM kit_pair WHERE member_a = $1 AND member_b = $2', [a, b]);
        return rows[0] as { blocked_by: string[]; version: number | null } | undefined;
      };
      expect(await kitRow(ann, ben)).toEqual({ blocked_by: annBen, version: 3 });
      expect(await kitRow(ben, cleo)).toEqual({ blocked_by: [], version: 7 });

      // The previous release's statements (PushRepository's savePairState, eraseMember).
      const savePairState = (x: string, y: string, blocked: boolean, version: number) =>
        after.query(
          `INSERT INTO notification_pair (member_a, member_b, blocked, version) VALUES ($1::uuid, $2::uuid, $3, $4::int)
           ON CONFLICT (member_a, member_b) DO UPDATE
             SET blocked = EXCLUDED.blocked, version = greatest(notification_pair.version, EXCLUDED.version), updated_at = now()`,
          [...orderedPairOf(x, y), blocked, version],
        );
      await savePairState(ann, ben, false, 4);
      expect(await kitRow(ann, ben)).toEqual({ blocked_by: [], version: 4 });
      await savePairState(ben, cleo, true, 8);
      expect(await kitRow(ben, cleo)).toEqual({ blocked_by: benCleo, version: 8 });
      // A block the new release applied (the kit's table only, with its blocker) keeps its blocker.
      const annDan = orderedPairOf(ann, dan);
      await after.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, version) VALUES ($1, $2, $3::uuid[], 2)`, [
        ...annDan,
        [dan],
      ]);
      await savePairState(ann, dan, true, 2);
      expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], version: 2 });

      await after.query('DELETE FROM notification_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [ben]);
      expect(await after.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [ben])).toEqual([]);
      expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], version: 2 });
      expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
    } finally {
      await after.destroy();
    }
  });
});
