import { randomUUID } from 'node:crypto';
import { orderedPairOf } from '@mate/contracts';
import { KIT_MIGRATIONS, projectionMigrations } from '@mate/server-kit';
import { describePairsInKitSwitch } from '@mate/server-kit/testing';
import { PairsInKitProjection1796430000000 } from '../1796430000000-PairsInKitProjection';
import { CHAT_MIGRATIONS } from '..';

/**
 * ADR 0030: on a database holding pair states in `chat_pair` and ended matches in `ended_match`,
 * the switch copies them into the kit's `kit_pair` (a blocked pair as blocked by both: who blocks
 * was never kept here) and `kit_ended_match`, and what a replica of the previous release still
 * writes during the roll (a pair event's state and ended match, an erasure) reaches the kit's
 * tables. The pair part of the scenario is the kit's (describePairsInKitSwitch); the ended
 * matches' are chat's own.
 */
const annBensMatch = randomUUID();
let annBen: [string, string];

describePairsInKitSwitch({
  service: 'chat-service',
  database: 'chat_pairs_switch',
  pairTable: 'chat_pair',
  before: [
    ...KIT_MIGRATIONS,
    ...projectionMigrations(['suspension']),
    ...CHAT_MIGRATIONS.filter((m) => m !== PairsInKitProjection1796430000000),
  ],
  after: [...KIT_MIGRATIONS, ...projectionMigrations(['suspension', 'pair']), ...CHAT_MIGRATIONS],
  // The previous release's statements (PairRepository's ENDED_MATCH_SQL, forgetMember).
  endedMatches: {
    seed: async (db, people) => {
      annBen = people.annBen;
      await db.query('INSERT INTO ended_match (match_id, member_a, member_b) VALUES ($1, $2, $3)', [
        annBensMatch,
        ...annBen,
      ]);
    },
    expectCopied: (rows) =>
      expect(rows).toEqual([{ match_id: annBensMatch, member_a: annBen[0], member_b: annBen[1] }]),
    save: (db, matchId, x, y) =>
      db.query(
        `INSERT INTO ended_match (match_id, member_a, member_b) VALUES ($1::uuid, $2::uuid, $3::uuid) ON CONFLICT (match_id) DO NOTHING`,
        [matchId, ...orderedPairOf(x, y)],
      ),
    expectSavedOnce: async (_db, rows, matchId) =>
      expect(rows.map((r) => r.match_id)).toEqual([annBensMatch, matchId].sort()),
    erase: async (db, userId) => {
      await db.query('DELETE FROM chat_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
      await db.query('DELETE FROM ended_match WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    },
    expectErased: (rows) => expect(rows).toEqual([]),
  },
});
