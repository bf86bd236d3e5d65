import type {
  EventEnvelope,
  MatchCreatedPayload,
  MatchEndedPayload,
  UserBlockedPayload,
  UserUnblockedPayload,
} from '@mate/contracts';

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

/** A pair event as the kit's pair projection applies it (`kit_pair` and `kit_ended_match`). `a < b`. */
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
