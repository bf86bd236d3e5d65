/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { orderedPairOf } from '@mate/contracts';
import { switchDatabase, type MigrationClass } from './switch-database';

/** A row of `kit_ended_match`, ordered by match_id in the scenario's reads. */
export interface KitEndedMatchRow {
  match_id: string;
  member_a: string | null;
  member_b: string | null;
}

/** The members and pairs of the pair switch's scenario, for a service's own steps. */
export interface PairsInKitSwitchPeople {
  ann: string;
  ben: string;
  cleo: string;
  dan: string;
  annBen: [string, string];
  benCleo: [string, string];
}

/** What one service's spec of its PairsInKitProjection migration tells the shared scenario. */
export interface PairsInKitSwitchSpec {
  /** The service's name, for the describe block: 'call-service'. */
  service: string;
  /** The test database's name. */
  database: string;
  /** The service's own pair table, with `ended_before`: 'call_pair'. */
  pairTable: string;
  /** The migrations of a database set up before the switch. */
  before: MigrationClass[];
  /** The migrations after it, the switch's with the kit's projections'. */
  after: MigrationClass[];
  /** The service's ended matches: how the previous release keeps them, and what the switch makes of them. */
  endedMatches: {
    /** Writes the ended matches before the switch (after the pair rows). */
    seed: (db: DataSource, people: PairsInKitSwitchPeople) => Promise<void>;
    /** Asserts the copy, given `kit_ended_match`'s rows. */
    expectCopied: (rows: KitEndedMatchRow[]) => void;
    /** The previous release's statement recording an ended match. */
    save: (db: DataSource, matchId: string, x: string, y: string) => Promise<unknown>;
    /** Asserts, after the same ended match was saved twice, that it is there once. */
    expectSavedOnce: (db: DataSource, rows: KitEndedMatchRow[], matchId: string) => Promise<void>;
    /** The previous release's erasure of a member: all its statements, the pair table's too. */
    erase: (db: DataSource, userId: string) => Promise<void>;
    /** Asserts what is left after the erasure of Ben (whose ended match with Cleo is `benCleosMatch`). */
    expectErased: (rows: KitEndedMatchRow[], benCleosMatch: string) => void;
  };
}

/**
 * ADR 0030: on a database holding pair states in `<pairTable>` and ended matches in the service's
 * own table, the switch copies them into the kit's `kit_pair` (a blocked pair as blocked by both:
 * who blocks was never kept there) and `kit_ended_match`, and what a replica of the previous
 * release still writes during the roll (a pair event's state and ended match, an erasure) reaches
 * the kit's tables. The pair part is the same for every service; each spec gives its ended
 * matches' statements and assertions.
 */
export function describePairsInKitSwitch(spec: PairsInKitSwitchSpec): void {
  const { pairTable, endedMatches: ended } = spec;
  describe(`${spec.service} migration: PairsInKitProjection, on a database set up before it`, () => {
    const database = switchDatabase(spec.database);

    it("copies every pair state and ended match into the kit tables, and carries the previous release's writes there", async () => {
      const before = await database.migratedBefore(spec.before);
      const [ann, ben, cleo, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const annBen = orderedPairOf(ann, ben);
      const benCleo = orderedPairOf(ben, cleo);
      const endedAt = new Date('2026-11-29T10:00:00Z');
      await before.query(
        `INSERT INTO ${pairTable} (member_a, member_b, blocked, ended_before, version) VALUES ($1, $2, true, $5, 3), ($3, $4, false, NULL, 7)`,
        [...annBen, ...benCleo, endedAt],
      );
      await ended.seed(before, { ann, ben, cleo, dan, annBen, benCleo });
      await before.destroy();

      const after = await database.opened(spec.after);
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
          return rows[0] as
            | { blocked_by: string[]; ended_before: Date | null; version: number | null }
            | undefined;
        };
        const endedMatches = async () =>
          (
            (await after.query(
              'SELECT match_id, member_a, member_b FROM kit_ended_match',
            )) as KitEndedMatchRow[]
          ).sort((x, y) => x.match_id.localeCompare(y.match_id));
        expect(await kitRow(ann, ben)).toEqual({ blocked_by: annBen, ended_before: endedAt, version: 3 });
        expect(await kitRow(ben, cleo)).toEqual({ blocked_by: [], ended_before: null, version: 7 });
        ended.expectCopied(await endedMatches());

        // The previous release's statements (its pair state's upsert, its ended match's, its erasure).
        const savePairState = (x: string, y: string, blocked: boolean, at: Date, version: number) =>
          after.query(
            `INSERT INTO ${pairTable} (member_a, member_b, blocked, ended_before, version)
           VALUES ($1::uuid, $2::uuid, $3::boolean, $4::timestamptz, $5::int)
           ON CONFLICT (member_a, member_b) DO UPDATE
             SET blocked = EXCLUDED.blocked, ended_before = greatest(${pairTable}.ended_before, EXCLUDED.ended_before),
                 version = greatest(${pairTable}.version, EXCLUDED.version), updated_at = now()`,
            [...orderedPairOf(x, y), blocked, at, version],
          );
        const later = new Date('2026-11-30T10:00:00Z');
        await savePairState(ann, ben, false, later, 4);
        expect(await kitRow(ann, ben)).toEqual({ blocked_by: [], ended_before: later, version: 4 });
        await savePairState(ben, cleo, true, later, 8);
        expect(await kitRow(ben, cleo)).toEqual({ blocked_by: benCleo, ended_before: later, version: 8 });
        const benCleosMatch = randomUUID();
        await ended.save(after, benCleosMatch, ben, cleo);
        await ended.save(after, benCleosMatch, ben, cleo);
        // A block the new release applied (the kit's table only, with its blocker) keeps its blocker.
        const annDan = orderedPairOf(ann, dan);
        await after.query(
          `INSERT INTO kit_pair (member_a, member_b, blocked_by, version) VALUES ($1, $2, $3::uuid[], 2)`,
          [...annDan, [dan]],
        );
        await savePairState(ann, dan, true, later, 2);
        expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], ended_before: later, version: 2 });
        await ended.expectSavedOnce(after, await endedMatches(), benCleosMatch);

        // The previous release's erasure of Ben.
        await ended.erase(after, ben);
        expect(await after.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [ben])).toEqual(
          [],
        );
        ended.expectErased(await endedMatches(), benCleosMatch);
        expect(await kitRow(ann, dan)).toEqual({ blocked_by: [dan], ended_before: later, version: 2 });
        expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
      } finally {
        await after.destroy();
      }
    });
  });
}
