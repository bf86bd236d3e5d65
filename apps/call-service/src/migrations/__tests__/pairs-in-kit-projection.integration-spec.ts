import { randomUUID } from 'node:crypto';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describePairsInKitSwitch } from '@mate/server-kit/testing';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CALL_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding pair states in `call_pair` and ended matches in
 * `call_ended_match`, the switch copies them into the kit's `kit_pair` (a blocked pair as blocked
 * by both: who blocks was never kept here) and `kit_ended_match` (with the pair when call_match has
 * the match), and what a replica of the previous release still writes during the roll (a pair
 * event's state and ended match, an erasure) reaches the kit's tables. The pair part of the
 * scenario is the kit's (describePairsInKitSwitch); the ended matches' are call's own.
 */
const annBensMatch = randomUUID();
const unknownMatch = randomUUID();
let annBen: [string, string];
const byId = <R extends { match_id: string }>(rows: R[]) =>
  [...rows].sort((x, y) => x.match_id.localeCompare(y.match_id));

describePairsInKitSwitch({
  service: 'call-service',
  database: 'call_pairs_switch',
  pairTable: 'call_pair',
  before: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...CALL_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
  ],
  after: [...KIT_MIGRATIONS, ...projectionMigrations(['suspension', 'pair']), ...CALL_MIGRATIONS],
  // The previous release's statements (PairRepository's ENDED_MATCH_SQL, forgetMember).
  endedMatches: {
    seed: async (db, people) => {
      annBen = people.annBen;
      await db.query(
        `INSERT INTO call_match (match_id, member_a, member_b, matched_at, pair_version) VALUES ($1, $2, $3, '2026-11-28T10:00:00Z', 2)`,
        [annBensMatch, ...annBen],
      );
      await db.query('INSERT INTO call_ended_match (match_id) VALUES ($1), ($2)', [
        annBensMatch,
        unknownMatch,
      ]);
    },
    expectCopied: (rows) =>
      expect(rows).toEqual(
        byId([
          { match_id: annBensMatch, member_a: annBen[0], member_b: annBen[1] },
          { match_id: unknownMatch, member_a: null, member_b: null },
        ]),
      ),
    save: (db, matchId) =>
      db.query('INSERT INTO call_ended_match (match_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING', [matchId]),
    expectSavedOnce: async (db, _rows, matchId) =>
      expect(
        (await db.query('SELECT match_id FROM call_ended_match WHERE match_id = $1', [matchId])).length,
      ).toBe(1),
    erase: async (db, userId) => {
      await db.query(
        `DELETE FROM call_ended_match WHERE match_id IN (SELECT match_id FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid)`,
        [userId],
      );
      await db.query('DELETE FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
      await db.query('DELETE FROM call_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    },
    expectErased: (rows, benCleosMatch) =>
      expect(rows.map((r) => r.match_id)).toEqual([benCleosMatch, unknownMatch].sort()),
  },
});
