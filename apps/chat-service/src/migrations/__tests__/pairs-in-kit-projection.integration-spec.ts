import { randomUUID } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { orderedPairOf } from '@mate/contracts';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CHAT_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding pair states in `chat_pair` and ended matches in `ended_match`,
 * the switch copies them into the kit's `kit_pair` (a blocked pair as blocked by both: who blocks
 * was never kept here) and `kit_ended_match`, and what a replica of the previous release still
 * writes during the roll (a pair event's state and ended match, an erasure) reaches the kit's
 * tables.
 */
describe('chat-service migration: PairsInKitProjection, on a database set up before it', () => {
  let db: TestDatabase;
  const dataSource = (migrations: (new () => MigrationInterface)[]) =>
    new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false });

  beforeAll(async () => {
    db = await createTestDatabase('chat_pairs_switch');
  });
  afterAll(async () => {
    await db.drop();
  });

  it("copies every pair state and ended match into the kit tables, and carries the previous release's writes there", async () => {
    const before = dataSource([
      ...KIT_MIGRATIONS,
      ...projectionMigrations(['suspension']),
      ...CHAT_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
    ]);
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const [ann, ben, cleo, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const annBen = orderedPairOf(ann, ben);
    const benCleo = orderedPairOf(ben, cleo);
    const annBensMatch = randomUUID();
    const endedAt = new Date('2026-11-29T10:00:00Z');
    await before.query(
      `INSERT INTO chat_pair (member_a, member_b, blocked, ended_before, version) VALUES ($1, $2, true, $5, 3), ($3, $4, false, NULL, 7)`,
      [...annBen, ...benCleo, endedAt],
    );
    await before.query('INSERT INTO ended_match (match_id, member_a, member_b) VALUES ($1, $2, $3)', [annBensMatch, ...annBen]);
    await before.destroy();

    const after = dataSource([...KIT_MIGRATIONS, ...projectionMigrations(['suspension', 'pair']), ...CHAT_MIGRATIONS]);
    await after.initialize();
    try {
      expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
        'PairStateProjection1796402000000',
        'EndedMatchProjection1796403000000',
        'PairsInKitProjection1796430000000',
      ]);
      const kitRow = async (x: string, y: string) => {
        const [a, b] = orderedPairOf(x, y);
        const rows = await after.query(
          'SELECT blocked_by, ended_before, version FROM kit_pair WHERE member_a = $1 AND member_b = $2',
          [a, b],
        );
        return rows[0] as { blocked_by: string[]; ended_before: Date | null; version: number | null } | undefined;
      };
      const endedMatches = async () =>
        ((await after.query('SELECT match_id, member_a, member_b FROM kit_ended_match ORDER BY match_id')) as {
          match_id: string;
          member_a: string;
          member_b: string;
        }[]);
      expect(await kitRow(ann, ben)).toEqual({ blocked_by: annBen, ended_before: endedAt, version: 3 });
      expect(await kitRow(ben, cleo)).toEqual({ blocked_by: [], ended_before: null, version: 7 });
      expect(await endedMatches()).toEqual([{ match_id: annBensMatch, member_a: annBen[0], member_b: annBen[1] }]);

      // The previous release's statements (PairRepository's PAIR_STATE_SQL, ENDED_MATCH_SQL, forgetMember).
      const savePairState = (x: string, y: string, blocked: boolean, at: Date, version: number) =>
        after.query(
          `INSERT INTO chat_pair (member_a, member_b, blocked, ended_before, version)
           VALUES ($1::uuid, $2::uuid, $3::boolean, $4::timestamptz, $5::int)
           ON CONFLICT (member_a, member_b) DO UPDATE
             SET blocked = EXCLUDED.blocked, ended_before = greatest(chat_pair.ended_before, EXCLUDED.ended_before),
                 version = greatest(chat_pair.version, EXCLUDED.version), updated_at = now()`,
          [...orderedPairOf(x, y), blocked, at, version],
        );
      const saveEndedMatch = (matchId: string, x: string, y: string) =>
        after.query(
          `INSERT INTO ended_match (match_id, member_a, member_b) VALUES ($1::uuid, $2::uuid, $3::uuid) ON CONFLICT (match_id) DO NOTHING`,
          [matchId, ...orderedPairOf(x, y)],
        );
      const later = new Date('2026-11-30T10:00:00Z');
      await savePairState(ann, ben, false, later, 4);
      expect(await kitRow(ann, ben)).toEqual({ blocked_by: [], ended_before: later, version: 4 });
      await savePairState(ben, cleo, true, later, 8);
      expect(await kitRow(ben, cleo)).toEqual({ blocked_by: benCleo, ended_before: later, version: 8 });
      const benCleosMatch = randomUUID();
      await saveEndedMatch(benCleosMatch, ben, cleo);
      await saveEndedMatch(benCleosMatch, ben, cleo);
      // A block the new release applied (the kit's table only, with its blocker) keeps its blocker.
      const annDan = orderedPairOf(ann, dan);
      await after.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, version) VALUES ($1, $2, $3::uuid[], 2)`, [
        ...annDan,
        [dan],
      ]);
      await savePairState(ann, dan, true, later, 2);
      expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], ended_before: later, version: 2 });
      expect((await endedMatches()).map((r) => r.match_id)).toEqual([annBensMatch, benCleosMatch].sort());

      // The previous release's erasure of Ben.
      await after.query('DELETE FROM chat_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [ben]);
      await after.query('DELETE FROM ended_match WHERE member_a = $1::uuid OR member_b = $1::uuid', [ben]);
      expect(await after.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [ben])).toEqual([]);
      expect(await endedMatches()).toEqual([]);
      expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], ended_before: later, version: 2 });
      expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
    } finally {
      await after.destroy();
    }
  });
});
