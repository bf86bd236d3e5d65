import { completedFactBody, insertOutboxFacts, pairBlockedSql, type PayloadCompletion } from '@mate/server-kit';
import { mutualRulesSql } from '../candidates/candidate-rules';

/**
 * Imported only by SwipesRepository (docs/conventions.md, "Where SQL lives"): the like's statement,
 * long enough for a file of its own.
 *
 * A like in one statement, run under the pair's lock (onceUnderPairLock), so its snapshot is taken
 * after the lock and sees the other side's committed like (and a block committed by the pair
 * events' handler, which takes the same lock). It reads the earlier swipe, whether the pair is
 * blocked, and checks the pair against the rules (CandidateRepository's pool uses the same
 * mutualRulesSql, blocks included); only when there
 * was no earlier swipe and the pair fits does it insert the like, see whether the other side liked
 * back, insert the match then, and write the outbox rows of like.created (its `matched` filled in
 * here) and match.created in the same transaction; a match made is also noted in match_history.
 *
 * Parameters: $1 liker, $2 liked, $3 and $4 the pair ordered as the match table stores it,
 * $5 the match id and $6 its time should one be made, $7 and $8 the outbox id and envelope of
 * like.created, $9 and $10 those of match.created, $11 the pair's id (`pairIdOf`) whose applied
 * safety version match.created carries as `pairVersion`.
 */
/** like.created's field the like's statement fills in: whether the like completed a mutual like. */
export type LikeCreatedByStatement = 'matched';
const LIKE_CREATED_BY_STATEMENT: PayloadCompletion<'like.created', LikeCreatedByStatement> = {
  matched: 'inserted.liked_back',
};

/**
 * match.created's field the like's statement fills in: the pair's safety state this match was made
 * under (ADR 0014), read after the pair lock, so a pair event applied before this like is seen, and
 * one applied after deletes the match.
 */
export type MatchCreatedByStatement = 'pairVersion';
const MATCH_CREATED_BY_STATEMENT: PayloadCompletion<'match.created', MatchCreatedByStatement> = {
  pairVersion: `coalesce((SELECT version FROM applied_version WHERE aggregate_type = 'pair' AND aggregate_id = $11::text), 0)`,
};

export const LIKE_SQL = `
WITH previous AS (
  SELECT liked FROM swipe WHERE swiper_id = $1::uuid AND target_id = $2::uuid
), pair AS (
  -- The liked member's row is locked (FOR KEY SHARE: profile updates still go ahead) against their
  -- erasure, which deletes it first: a like either commits before the erasure, which then deletes
  -- it, or waits and finds no member (docs/adr/0016-member-data.md).
  SELECT c.suggestible, c.suspended, coalesce(v.user_id IS NOT NULL AND (${mutualRulesSql('v', 'c')}), false) AS fits
  FROM candidate c LEFT JOIN candidate v ON v.user_id = $1::uuid
  WHERE c.user_id = $2::uuid
  FOR KEY SHARE OF c
), blocked AS (
  SELECT 1 WHERE ${pairBlockedSql('$3::uuid', '$4::uuid')}
), inserted AS (
  -- A swipe written meanwhile by a writer without the pair lock (an older replica mid-deploy, a
  -- seeder) wins: nothing inserted, and the caller answers as the pair stands.
  INSERT INTO swipe (swiper_id, target_id, liked)
  SELECT $1::uuid, $2::uuid, true FROM pair WHERE pair.fits AND NOT EXISTS (SELECT 1 FROM previous)
  ON CONFLICT (swiper_id, target_id) DO NOTHING
  RETURNING EXISTS (SELECT 1 FROM swipe WHERE swiper_id = $2::uuid AND target_id = $1::uuid AND liked) AS liked_back
), made AS (
  INSERT INTO match (id, user_a, user_b, created_at)
  SELECT $5::uuid, $3::uuid, $4::uuid, $6::timestamptz FROM inserted WHERE inserted.liked_back
  ON CONFLICT (user_a, user_b) DO NOTHING
  RETURNING id
), made_history AS (
  -- Every match ever made stays counted after the pair's match ends (admin statistics, issue 13).
  INSERT INTO match_history (match_id, created_at) SELECT id, $6::timestamptz FROM made
), like_fact AS (
  SELECT $7::uuid AS id, 'like.created' AS name, ${completedFactBody('$8::jsonb', LIKE_CREATED_BY_STATEMENT)} AS body
  FROM inserted
), match_fact AS (
  SELECT $9::uuid AS id, 'match.created' AS name, ${completedFactBody('$10::jsonb', MATCH_CREATED_BY_STATEMENT)} AS body
  FROM made
), like_event AS (
  ${insertOutboxFacts('like_fact')}
), match_event AS (
  ${insertOutboxFacts('match_fact')}
)
SELECT (SELECT liked FROM previous) AS previous,
  (SELECT suggestible FROM pair) AS suggestible,
  (SELECT fits FROM pair) AS fits,
  coalesce((SELECT suspended FROM pair), false) AS suspended,
  EXISTS (SELECT 1 FROM blocked) AS blocked,
  EXISTS (SELECT 1 FROM inserted) AS inserted,
  EXISTS (SELECT 1 FROM made) AS made,
  coalesce((SELECT id FROM made), (SELECT id FROM match WHERE user_a = $3::uuid AND user_b = $4::uuid)) AS match_id,
  -- For the pair gate (ADR 0029): when the pair's match was made, and under which pair version. A
  -- match that still exists was made under the pair's current version: every pair event applied
  -- since would have deleted it.
  CASE WHEN EXISTS (SELECT 1 FROM made) THEN $6::timestamptz
       ELSE (SELECT created_at FROM match WHERE user_a = $3::uuid AND user_b = $4::uuid) END AS matched_at,
  coalesce((SELECT version FROM applied_version WHERE aggregate_type = 'pair' AND aggregate_id = $11::text), 0)::int AS pair_version,
  (SELECT json_agg(json_build_object('id', c.user_id, 'name', c.name, 'profilePicture', c.profile_picture)
      ORDER BY c.user_id)
    FROM candidate c WHERE c.user_id IN ($3::uuid, $4::uuid) AND EXISTS (SELECT 1 FROM made)) AS members`;

/** The answer of LIKE_SQL. */
export interface LikeRow {
  /** The earlier swipe of the pair by the liker: true a like, false a pass, null none. */
  previous: boolean | null;
  /** Null when matching does not know the liked member. */
  suggestible: boolean | null;
  fits: boolean | null;
  /** The liked member is suspended (issue 13): refused like any unavailable member, a repeat too. */
  suspended: boolean;
  /** Either member blocks the other (then `fits` is false too: the hard rules leave the pair out). */
  blocked: boolean;
  inserted: boolean;
  made: boolean;
  /** The pair's match, made now or before; null when there is none. */
  match_id: string | null;
  /** When the pair's match was made (null without one). */
  matched_at: Date | null;
  /** The pair version the pair's match was made under (the pair's applied version now). */
  pair_version: number;
  /** Both members as new_match shows them (ordered by id), when the match was made now. */
  members: { id: string; name: string | null; profilePicture: string | null }[] | null;
}
