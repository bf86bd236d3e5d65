import type {
  EventEnvelope,
  MatchCreatedPayload,
  MatchEndedPayload,
  UserBlockedPayload,
  UserUnblockedPayload,
} from '@mate/contracts';
import type { EntityManager } from 'typeorm';
import type { EventHandlers } from './event-consumer';

/** The events that carry a pair's whole safety state (one aggregate per pair, applied in version order). */
export type PairEventName = 'user.blocked' | 'user.unblocked' | 'match.ended';

/**
 * A match as a service's pair projection records it: from `match.created`, or from the pair gate's
 * match before that event arrives (docs/adr/0029-match-propagation.md). `a < b`.
 */
export interface ProjectedMatch {
  matchId: string;
  a: string;
  b: string;
  matchedAt: Date;
  /** The pair version matching made it under (null: an event from before versions). */
  pairVersion: number | null;
}

/** A pair event as a projection applies it (chat's and call's `*_pair` and ended-match rows). `a < b`. */
export interface ProjectedPairEvent {
  a: string;
  b: string;
  /** Either member blocks the other. */
  blocked: boolean;
  /** When it happened (the payload's own time). */
  at: Date;
  /** The pair's version the envelope carries (null: none). */
  version: number | null;
  /** The match it names as ended (user.blocked's endedMatchId, match.ended's matchId), if any. */
  endedMatchId: string | null;
}

/** `match.created`, read by the consumer (its pair ascending), as a projection records it. */
export function projectedMatchOf(payload: MatchCreatedPayload): ProjectedMatch {
  const [a, b] = payload.userIds;
  return {
    matchId: payload.matchId,
    a,
    b,
    matchedAt: new Date(payload.createdAt),
    pairVersion: payload.pairVersion ?? null,
  };
}

/**
 * A pair event, read by the consumer (its pair ascending; a block whose state could not be read
 * reads as the blocker's, fail closed), as a projection applies it.
 */
export function projectedPairEventOf<N extends PairEventName>(
  name: N,
  payload: UserBlockedPayload | UserUnblockedPayload | MatchEndedPayload,
  envelope: Pick<EventEnvelope<N>, 'aggregateVersion'>,
): ProjectedPairEvent {
  const [a, b] = payload.userIds;
  const stated =
    name === 'user.blocked'
      ? (payload as UserBlockedPayload).blockedAt
      : name === 'user.unblocked'
        ? (payload as UserUnblockedPayload).unblockedAt
        : (payload as MatchEndedPayload).endedAt;
  const ended =
    name === 'user.blocked'
      ? (payload as UserBlockedPayload).endedMatchId
      : name === 'match.ended'
        ? (payload as MatchEndedPayload).matchId
        : null;
  return {
    a,
    b,
    blocked: payload.blockedBy.length > 0,
    at: new Date(stated),
    version: envelope.aggregateVersion ?? null,
    endedMatchId: ended ?? null,
  };
}

/**
 * The three pair events' handlers: each payload read by projectedPairEventOf and given to `apply`
 * (in the consumer's transaction).
 */
export function pairEventHandlers(
  apply: (manager: EntityManager, event: ProjectedPairEvent) => Promise<void>,
): Pick<EventHandlers, PairEventName> {
  return {
    'user.blocked': (payload, manager, envelope) =>
      apply(manager, projectedPairEventOf(envelope.name, payload, envelope)),
    'user.unblocked': (payload, manager, envelope) =>
      apply(manager, projectedPairEventOf(envelope.name, payload, envelope)),
    'match.ended': (payload, manager, envelope) =>
      apply(manager, projectedPairEventOf(envelope.name, payload, envelope)),
  };
}

/**
 * Whether a match is live, as a SQL expression, the rule chat and call apply alike: neither member
 * blocks the other, no pair event named it ended, and no pair event newer than the one it was made
 * under was applied. Versions, not clocks: the match's pair version (`pairVersion`, the version
 * matching had applied when it made it) is at least the newest the projection applied; only a match
 * from before versions (null) falls back to comparing its time (`at`) with the newest pair event's.
 *
 * `pair` is the projection's pair row (version, ended_before, and `pairBlocked`, whether either
 * blocks, over it: `pair.blocked` by default; a LEFT JOIN: no row, no pair event yet) and
 * `endedMatches` its table of ended match ids (`match_id`). The kit's own tables: liveKitMatchSql.
 */
export function liveMatchSql(
  endedMatches: string,
  match: string,
  at: string,
  pairVersion: string,
  pairBlocked = 'pair.blocked',
): string {
  return `(NOT coalesce(${pairBlocked}, false)
    AND NOT EXISTS (SELECT 1 FROM ${endedMatches} e WHERE e.match_id = ${match})
    AND CASE WHEN ${pairVersion} IS NOT NULL AND (pair.version IS NOT NULL OR pair.ended_before IS NULL)
             THEN ${pairVersion} >= coalesce(pair.version, 0)
             ELSE (pair.ended_before IS NULL OR ${at} > pair.ended_before) END)`;
}
