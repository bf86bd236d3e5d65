import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  CALL_HISTORY_DEFAULT_LIMIT,
  CallErrorCode,
  CallMessages,
  orderedPairOf,
  SUBTITLE_MAX_LENGTH,
  type CallHistoryStatus,
  type CallRecordDto,
  type CallStatsDto,
  type CallStatus,
} from '@mate/contracts';
import {
  badRequest,
  CLOCK,
  conflict,
  forbidden,
  notFound,
  lockMembersAgainstErasure,
  PairGate,
  pairGateMatch,
  ReadReplica,
  type Clock,
  type PairGateMatch,
} from '@mate/server-kit';
import { CallEnv } from '../call.env';
import type { ActiveCalls, AnsweredCall } from '../transcription/active-calls';
import { CallEndedFacts } from './call-ended-facts';
import { CallNotifier } from './call-notifier';
import { CallRepository, type CallRow, type EndedRow } from './call.repository';
import { PairRepository } from './pair.repository';

/** Largest `signal` relayed, as JSON (an SDP offer is a few KB; a candidate a few hundred bytes). */
export const SIGNAL_MAX_BYTES = 16 * 1024;
export const SIGNAL_TOO_LARGE = `signal must be at most ${SIGNAL_MAX_BYTES} bytes as JSON`;
/** call:incoming's name when the caller's profile has none yet. */
export const UNKNOWN_CALLER_NAME = 'Your match';

export interface CallHistoryQuery {
  limit?: number;
  offset?: number;
  status?: CallHistoryStatus;
}

/** Control characters (C0, DEL, C1) and bidi overrides are dropped from subtitles; line breaks become spaces. */
export function normalizeSubtitle(text: string): string {
  return (
    text
      .replace(/[\r\n\t]+/g, ' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * The signalling rules of issue 11 (docs/adr/0015-calls.md). Every decision is taken in
 * PostgreSQL: a new call under both members' advisory locks (one active call per member), every
 * transition a conditional UPDATE on `status = 'in_progress'` (one of two racing transitions
 * wins; a final status never changes, which a trigger also enforces). Times come from the
 * injectable clock, never from the client. Pushes go out after the commit. The member's limits
 * (calls, signals, subtitles) are counted before any method here runs, by the kit
 * (`@CountedPerMember(CallRateLimiter, kind)` on CallSocketEvents).
 */
@Injectable()
export class CallsService implements ActiveCalls {
  constructor(
    private readonly dataSource: DataSource,
    private readonly records: CallRepository,
    private readonly pairs: PairRepository,
    private readonly notifier: CallNotifier,
    private readonly facts: CallEndedFacts,
    private readonly env: CallEnv,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly gate: PairGate,
    private readonly reads: ReadReplica,
  ) {}

  /**
   * call:initiate (a call to oneself is refused before, with the payload: CallInitiateDto).
   * Refused (nothing recorded) for a pair that is not matched or
   * where one blocks the other. When either member is already in a call the attempt is refused
   * as busy, and recorded as failed once per caller and callee while those calls last: retries
   * are not written again (issue 24 item 7; the callee's history is not theirs to fill).
   * Otherwise the call rings: `call:incoming` with the caller's profile name goes to every socket
   * of the callee.
   */
  async initiate(callerId: string, to: string): Promise<{ callId: string }> {
    const gate = await this.gate.read(callerId, to);
    const floor = gate && !gate.open ? gate.version : 0;
    const [a, b] = orderedPairOf(callerId, to);
    const id = randomUUID();
    const now = this.clock.now();
    const attempt = () =>
      this.dataSource.transaction(async (m) => {
        await this.records.lockMembers(m, a, b);
        if (!(await this.records.isCallable(a, b, floor, m))) return 'refused' as const;
        const status: CallStatus = (await this.records.inActiveCall(m, a, b)) ? 'failed' : 'in_progress';
        if (status === 'failed' && (await this.records.busyRecorded(m, callerId, to))) return 'busy' as const;
        await this.records.insert(m, { id, callerId, recipientId: to, status, startedAt: now });
        if (status === 'failed') {
          // Recorded already final: its call.ended goes with it.
          await this.facts.publish(m, [
            { id, caller_id: callerId, recipient_id: to, status, ended_at: now, duration_seconds: 0 },
          ]);
          return 'busy' as const;
        }
        return { name: await this.records.callerName(m, callerId) };
      });
    let outcome = await attempt();
    // A match whose like answered a moment ago, which match.created has not brought here yet: the
    // gate names it (ADR 0029). Recorded as the event records it (which then changes nothing), then
    // the call tried once more under the projection's rule (a block it applied still refuses).
    const gated = outcome === 'refused' ? pairGateMatch(gate) : null;
    if (gated && (await this.recordGatedMatch(a, b, gated))) outcome = await attempt();
    if (outcome === 'refused') throw forbidden(CallMessages.notMatched, CallErrorCode.NotMatched);
    // The call is in both members' history now (a busy call may be): their next history reads the
    // primary until the replica has it (ADR 0033).
    await this.reads.wrote(callerId, to);
    if (outcome === 'busy') throw conflict(CallMessages.busy, CallErrorCode.Busy);
    await this.notifier.push(to, 'call:incoming', {
      from: callerId,
      callerName: outcome.name || UNKNOWN_CALLER_NAME,
    });
    return { callId: id };
  }

  /** call:accept: only the callee of the pair's ringing call, while it still rings. */
  async accept(calleeId: string, callerId: string): Promise<void> {
    if (await this.gateCloses(calleeId, callerId, await this.gateFloor(calleeId, callerId)))
      throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    const accepted = await this.records.accept(
      calleeId,
      callerId,
      this.clock.now(),
      this.env.CALL_RING_TIMEOUT_MS,
    );
    if (!accepted) throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    await this.reads.wrote(calleeId, callerId);
    await this.notifier.push(callerId, 'call:accepted', { from: calleeId });
  }

  /** call:reject: only the callee of the pair's ringing call. */
  async reject(calleeId: string, callerId: string): Promise<void> {
    const now = this.clock.now();
    const rejected = await this.endInTransaction((m) => this.records.reject(m, calleeId, callerId, now));
    if (rejected.length === 0) throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    await this.notifier.push(callerId, 'call:rejected', { from: calleeId });
  }

  /** call:end: either member of the pair's active call; completed once answered, else missed. */
  async end(userId: string, other: string): Promise<void> {
    const now = this.clock.now();
    const ended = await this.endInTransaction((m) => this.records.endBetween(m, userId, other, now));
    if (ended.length === 0) throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    await this.notifier.push(other, 'call:ended', { from: userId });
  }

  /** call:signal: relayed only between the two members of their active call. */
  async signal(userId: string, to: string, signal: unknown): Promise<void> {
    const floor = await this.gateFloor(userId, to);
    const size = Buffer.byteLength(JSON.stringify(signal ?? null) ?? 'null');
    if (size > SIGNAL_MAX_BYTES) throw badRequest(SIGNAL_TOO_LARGE, CallErrorCode.SignalTooLarge);
    if (!(await this.records.activeBetween(userId, to)) || (await this.gateCloses(userId, to, floor))) {
      throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    }
    await this.notifier.push(to, 'call:signal', { from: userId, signal });
  }

  /** subtitle: relayed only to the other member of an answered active call, normalized. */
  async subtitle(userId: string, recipientId: string, text: string): Promise<void> {
    const floor = await this.gateFloor(userId, recipientId);
    const clean = normalizeSubtitle(text);
    if (clean.length > SUBTITLE_MAX_LENGTH) {
      throw badRequest(CallMessages.subtitleTooLong, CallErrorCode.SubtitleTooLong);
    }
    const active = await this.records.activeBetween(userId, recipientId);
    if (!active?.answered || (await this.gateCloses(userId, recipientId, floor)))
      throw conflict(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    if (clean.length > 0) await this.notifier.push(recipientId, 'subtitle', { userId, text: clean });
  }

  /** The member's answered, not yet ended call (transcription's ActiveCalls port), or null. */
  async activeAnsweredCallOf(userId: string): Promise<AnsweredCall | null> {
    return this.records.answeredCallOf(userId.toLowerCase());
  }

  /**
   * One page of the member's calls, newest first, of one status or all (issue 25: the filter
   * applies to the whole history, then pages). `hasMore`: another page of the same filter follows.
   */
  async history(
    userId: string,
    { limit = CALL_HISTORY_DEFAULT_LIMIT, offset = 0, status }: CallHistoryQuery = {},
  ): Promise<{ calls: CallRecordDto[]; hasMore: boolean }> {
    const rows = await this.records.history(userId, limit + 1, offset, status ?? null);
    return { calls: rows.slice(0, limit).map(toRecord), hasMore: rows.length > limit };
  }

  async one(userId: string, id: string): Promise<CallRecordDto> {
    const row = await this.records.one(id, userId);
    if (!row) throw notFound(CallMessages.callNotFound, CallErrorCode.CallNotFound);
    return toRecord(row);
  }

  async stats(userId: string): Promise<CallStatsDto> {
    const row = await this.records.stats(userId);
    return {
      totalCalls: row.total,
      completedCalls: row.completed,
      successRate: row.total === 0 ? 0 : row.completed / row.total,
      averageDurationSeconds: row.average,
    };
  }

  /**
   * Runs `end`, one of CallRepository's conditional UPDATEs that move calls to a final status, and
   * writes their call.ended facts in the same transaction; answers the calls it ended. Their
   * members' history reads the primary until the replica has them (ADR 0033).
   */
  async endInTransaction(end: (manager: EntityManager) => Promise<EndedRow[]>): Promise<EndedRow[]> {
    const ended = await this.dataSource.transaction(async (m) => {
      const rows = await end(m);
      await this.facts.publish(m, rows);
      return rows;
    });
    await this.reads.wrote(...new Set(ended.flatMap((c) => [c.caller_id, c.recipient_id])));
    return ended;
  }

  /**
   * Records the match the pair gate names (ADR 0029) with match.created's own insert, in its own
   * transaction (the erasure lock comes before the member locks, as in the event's handler); not
   * for a member erased here, whose late event the kit's consumer drops too. Answers whether it ran.
   */
  private async recordGatedMatch(
    a: string,
    b: string,
    match: PairGateMatch & { pairVersion: number },
  ): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      if (await lockMembersAgainstErasure(m, [a, b])) return false;
      await this.pairs.recordMatch(m, {
        matchId: match.matchId,
        a,
        b,
        matchedAt: match.matchedAt,
        pairVersion: match.pairVersion,
      });
      return true;
    });
  }

  /**
   * The pair gate's closing version (ADR 0024), 0 when it is open or unset: a block or unmatch that
   * has answered ends what the pair may do here before this service's projection applies its event.
   * Read in the same round trip as the event's rate limit; a failed read rejects (503).
   */
  private async gateFloor(x: string, y: string): Promise<number> {
    if (x === y) return 0;
    const gate = await this.gate.read(x, y);
    return gate && !gate.open ? gate.version : 0;
  }

  /**
   * Whether the gate closed the pair's match (only asked when the gate holds a closing version):
   * no live match made at or after that version. The active call then hears nothing more from
   * either member; the consumer ends it when the pair event arrives.
   */
  private async gateCloses(x: string, y: string, floor: number): Promise<boolean> {
    if (floor === 0) return false;
    const [a, b] = orderedPairOf(x, y);
    return !(await this.records.isCallable(a, b, floor));
  }
}

export function toRecord(row: CallRow): CallRecordDto {
  return {
    id: row.id,
    callerId: row.caller_id,
    recipientId: row.recipient_id,
    callerName: row.caller_name,
    recipientName: row.recipient_name,
    status: row.status as CallStatus,
    startedAt: new Date(row.started_at).toISOString(),
    durationSeconds: row.duration_seconds,
    callerProfilePicture: row.caller_picture,
    recipientProfilePicture: row.recipient_picture,
    callable: row.callable,
  };
}
