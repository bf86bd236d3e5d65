import { Expose, Transform } from 'class-transformer';
import {
  pairIdOf,
  REPORT_REASONS,
  type MatchEndedPayload,
  type ReportCreatedPayload,
  type ReportReason,
  type ReportResolvedPayload,
  type UserBlockedPayload,
  type UserUnblockedPayload,
} from '@mate/contracts';
import { Flag, Id, IdList, KnownOr, Nullable, OneOf, Text, Time } from './payload-fields';
import { MemberPair } from './matching.payloads';

/**
 * Who of the pair blocks the other, each once, in the pair's order (ids another than the pair's
 * are dropped). A list that cannot be read fails closed: on `user.blocked` the blocker blocks,
 * on any other pair event nobody does (safety-service always writes the list).
 */
function BlockedBy(unreadable: (payload: Record<string, unknown>) => unknown[]): PropertyDecorator {
  return (target, key) => {
    IdList()(target, key);
    // Exposed so a payload without the list is normalised too.
    Expose()(target, key);
    Transform(({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
      const pair = pairOf(obj['userIds']);
      const named = Array.isArray(value) ? value : unreadable(obj);
      const lower = named.map((id) => (typeof id === 'string' ? id.toLowerCase() : id));
      return pair.filter((id) => lower.includes(id));
    })(target, key);
  };
}

function pairOf(userIds: unknown): string[] {
  if (!Array.isArray(userIds)) return [];
  return userIds
    .filter((id): id is string => typeof id === 'string')
    .map((id) => id.toLowerCase())
    .sort();
}

/** The pair's aggregate id, re-spelled from its (lower-cased) members when they are readable. */
const PairId = (): PropertyDecorator => (target, key) => {
  Text()(target, key);
  Transform(({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
    const pair = pairOf(obj['userIds']);
    return pair.length === 2 ? pairIdOf(pair[0], pair[1]) : value;
  })(target, key);
};

/** A match id that cannot be read reads as none: consumers end the pair's match anyway. */
const EndedMatchId = (): PropertyDecorator => (target, key) => {
  Nullable()(target, key);
  Id()(target, key);
  Transform(({ value }) =>
    typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
      ? value
      : null,
  )(target, key);
};

/** `user.blocked` (safety-service): the pair's whole block state, and the match it ended. */
export class UserBlockedEvent implements UserBlockedPayload {
  @PairId() pairId!: string;
  @MemberPair() userIds!: [string, string];
  @BlockedBy((payload) => [payload['blockerId']]) blockedBy!: string[];
  @Id() blockerId!: string;
  @Id() blockedId!: string;
  @EndedMatchId() endedMatchId!: string | null;
  @Time() blockedAt!: string;
}

/** `user.unblocked` (safety-service): the pair's whole block state. */
export class UserUnblockedEvent implements UserUnblockedPayload {
  @PairId() pairId!: string;
  @MemberPair() userIds!: [string, string];
  @BlockedBy(() => []) blockedBy!: string[];
  @Id() blockerId!: string;
  @Id() blockedId!: string;
  @Time() unblockedAt!: string;
}

/** `match.ended` (safety-service): an unmatch, and the pair's whole block state. */
export class MatchEndedEvent implements MatchEndedPayload {
  @PairId() pairId!: string;
  @MemberPair() userIds!: [string, string];
  @BlockedBy(() => []) blockedBy!: string[];
  @Id() matchId!: string;
  @Id() endedBy!: string;
  @OneOf(['unmatch']) reason!: 'unmatch';
  @Time() endedAt!: string;
}

/** `report.created` (safety-service). A reason this build does not know reads as `other`. */
export class ReportCreatedEvent implements ReportCreatedPayload {
  @Id() reportId!: string;
  @Id() reporterId!: string;
  @Id() reportedId!: string;
  @KnownOr(REPORT_REASONS, 'other') @OneOf(REPORT_REASONS) reason!: ReportReason;
  @Flag() hasDetails!: boolean;
  @Time() createdAt!: string;
}

/** `report.resolved` (safety-service). */
export class ReportResolvedEvent implements ReportResolvedPayload {
  @Id() reportId!: string;
  @Id() reporterId!: string;
  @Id() reportedId!: string;
  @KnownOr(REPORT_REASONS, 'other') @OneOf(REPORT_REASONS) reason!: ReportReason;
  @OneOf(['reviewed', 'dismissed']) status!: 'reviewed' | 'dismissed';
  @Time() reportedAt!: string;
  @Time() resolvedAt!: string;
}
