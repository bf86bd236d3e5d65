import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { REPORT_REASONS, type EventEnvelope, type EventName, type EventPayloads } from '@mate/contracts';
import {
  eraseMemberTraces,
  isMemberErased,
  LOGGER,
  memberIdToErase,
  type EventHandlers,
  type EventHandlerSet,
} from '@mate/server-kit';
import { AnalyticsEventsRepository, type AnalyticsFact } from './analytics-events.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SUBJECT_MAX_LENGTH = 200;

/** A member or thing id in the one spelling the store keeps (lower case), or null. */
function idOf(value: unknown): string | null {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null;
}
/** A subject id (match, conversation, report, photo, call): a UUID, or any short text. */
function subjectOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > SUBJECT_MAX_LENGTH) return null;
  return UUID.test(value) ? value.toLowerCase() : value;
}
function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
}
function dayOf(value: unknown): string | null {
  if (typeof value !== 'string' || !DAY.test(value)) return null;
  const time = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 10) === value ? value : null;
}
function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | null {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}
const REASONS: readonly string[] = REPORT_REASONS;
/** A report reason as reported; an unknown one (a newer producer's) is kept as `other`. */
function reasonOf(value: unknown): string {
  return typeof value === 'string' && REASONS.includes(value) ? value : 'other';
}

type Read<N extends EventName> = (payload: EventPayloads[N], envelope: EventEnvelope<N>) => AnalyticsFact | null;

/**
 * Every event admin-service consumes feeds the analytics event store: one fact per event id
 * (the consumer runs each handler once per id, in its transaction). A payload that cannot be
 * read is logged and skipped (retrying would not make it readable). `user.suspended` and
 * `user.unsuspended` also set the member's suspension state (only a newer version wins);
 * `user.deleted` replaces the member's id everywhere with one fresh random id.
 */
@Injectable()
export class AnalyticsEventHandlers implements EventHandlerSet {
  constructor(
    private readonly store: AnalyticsEventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  handlers(): EventHandlers {
    return {
      'user.registered': this.fact('user.registered', (p, e) => this.memberFact(e, p.userId, p.registeredAt)),
      'user.verified': this.fact('user.verified', (p, e) => this.memberFact(e, p.userId, p.verifiedAt)),
      'onboarding.completed': this.fact('onboarding.completed', (p, e) =>
        this.memberFact(e, p.userId, p.completedAt, { skipped: p.skipped === true }),
      ),
      'photo.uploaded': this.fact('photo.uploaded', (p, e) => this.photoFact(e, p.userId, p.photoId, p.uploadedAt)),
      'photo.deleted': this.fact('photo.deleted', (p, e) => this.photoFact(e, p.userId, p.photoId, p.deletedAt)),
      'photo.moderated': this.fact('photo.moderated', (p, e) => {
        const outcome = oneOf(p.outcome, ['scored', 'approved', 'rejected'] as const);
        const riskScore = typeof p.riskScore === 'number' && Number.isFinite(p.riskScore) ? p.riskScore : null;
        return outcome ? this.photoFact(e, p.userId, p.photoId, p.at, { outcome, riskScore, hidden: p.hidden === true }) : null;
      }),
      'like.created': this.fact('like.created', (p, e) => this.pairFact(e, p.likerId, p.likedId, p.createdAt, null, { matched: p.matched === true })),
      'pass.created': this.fact('pass.created', (p, e) => this.pairFact(e, p.passerId, p.passedId, p.createdAt, null)),
      'match.created': this.fact('match.created', (p, e) => {
        const [a, b] = Array.isArray(p.userIds) ? p.userIds : [];
        const matchId = subjectOf(p.matchId);
        return matchId ? this.pairFact(e, a, b, p.createdAt, matchId) : null;
      }),
      'message.sent': this.fact('message.sent', (p, e) => {
        const conversationId = subjectOf(p.conversationId);
        if (!conversationId || !Number.isInteger(p.seq)) return null;
        return this.pairFact(e, p.senderId, p.recipientId, p.sentAt, conversationId, { first: p.first === true, seq: p.seq });
      }),
      'call.ended': this.fact('call.ended', (p, e) => {
        const status = oneOf(p.status, ['completed', 'missed', 'rejected', 'failed'] as const);
        const callId = subjectOf(p.callId);
        const durationSeconds = typeof p.durationSeconds === 'number' && p.durationSeconds >= 0 ? Math.round(p.durationSeconds) : null;
        if (!status || !callId || durationSeconds === null) return null;
        return this.pairFact(e, p.callerId, p.calleeId, p.endedAt, callId, { status, durationSeconds });
      }),
      'report.created': this.fact('report.created', (p, e) => {
        const reportId = subjectOf(p.reportId);
        return reportId ? this.pairFact(e, p.reporterId, p.reportedId, p.createdAt, reportId, { reason: reasonOf(p.reason) }) : null;
      }),
      'report.resolved': this.fact('report.resolved', (p, e) => {
        const reportId = subjectOf(p.reportId);
        const status = oneOf(p.status, ['reviewed', 'dismissed'] as const);
        const reportedAt = timeOf(p.reportedAt);
        if (!reportId || !status || !reportedAt) return null;
        return this.pairFact(e, p.reporterId, p.reportedId, p.resolvedAt, reportId, {
          reason: reasonOf(p.reason),
          status,
          reportedAt: reportedAt.toISOString(),
        });
      }),
      'user.blocked': this.fact('user.blocked', (p, e) => this.pairFact(e, p.blockerId, p.blockedId, p.blockedAt, null)),
      'member.active': this.fact('member.active', (p, e) => {
        const day = dayOf(p.day);
        const fact = this.memberFact(e, p.userId, p.at);
        return fact && day ? { ...fact, day } : null;
      }),
      'user.suspended': (payload, manager, envelope) => this.suspension(manager, envelope, payload.userId, true, payload.suspendedAt),
      'user.unsuspended': (payload, manager, envelope) => this.suspension(manager, envelope, payload.userId, false, payload.unsuspendedAt),
      'user.deleted': (payload, manager, envelope) => this.erase(manager, envelope, payload.userId, payload.deletedAt),
    };
  }

  /** A handler that stores the fact `read` makes of the event, or logs and skips an unreadable one. */
  private fact<N extends EventName>(name: N, read: Read<N>) {
    return async (payload: EventPayloads[N], manager: EntityManager, envelope: EventEnvelope<N>): Promise<void> => {
      const fact = payload && typeof payload === 'object' ? read(payload, envelope) : null;
      if (!fact) {
        this.logger.error({ eventId: envelope.id, name }, 'event with an unreadable payload skipped');
        return;
      }
      await this.store.append(manager, fact);
    };
  }

  private memberFact(envelope: EventEnvelope, userId: unknown, at: unknown, props: Record<string, unknown> = {}): AnalyticsFact | null {
    const member = idOf(userId);
    const occurredAt = timeOf(at);
    const id = idOf(envelope.id);
    if (!member || !occurredAt || !id) return null;
    return { id, type: envelope.name, userId: member, occurredAt, props };
  }

  private photoFact(envelope: EventEnvelope, userId: unknown, photoId: unknown, at: unknown, props: Record<string, unknown> = {}): AnalyticsFact | null {
    const fact = this.memberFact(envelope, userId, at, props);
    const subjectId = subjectOf(photoId);
    return fact && subjectId ? { ...fact, subjectId } : null;
  }

  private pairFact(
    envelope: EventEnvelope,
    userId: unknown,
    otherUserId: unknown,
    at: unknown,
    subjectId: string | null,
    props: Record<string, unknown> = {},
  ): AnalyticsFact | null {
    const fact = this.memberFact(envelope, userId, at, props);
    const other = idOf(otherUserId);
    return fact && other ? { ...fact, otherUserId: other, subjectId } : null;
  }

  /** The fact, and the member's suspension state when this version is newer than the one kept. */
  private async suspension(manager: EntityManager, envelope: EventEnvelope, userId: unknown, suspended: boolean, at: unknown): Promise<void> {
    const fact = this.memberFact(envelope, userId, at);
    if (!fact || !fact.userId) {
      this.logger.error({ eventId: envelope.id, name: envelope.name }, 'event with an unreadable payload skipped');
      return;
    }
    await this.store.append(manager, fact);
    await this.store.applySuspension(manager, fact.userId, suspended, envelope.aggregateVersion ?? 0, fact.occurredAt);
  }

  /**
   * `user.deleted`: the kit's traces go (ADR 0016) and every fact of the member keeps its place in
   * the aggregates under one fresh random id; the deletion itself is stored under that id too (the
   * growth chart's total drops on that day). A repeated deletion of an erased member changes nothing.
   */
  private async erase(manager: EntityManager, envelope: EventEnvelope, payloadUserId: unknown, deletedAt: unknown): Promise<void> {
    const userId = memberIdToErase(payloadUserId);
    const id = idOf(envelope.id);
    if (!userId || !id) {
      this.logger.error({ eventId: envelope.id }, 'user.deleted with an unreadable payload skipped');
      return;
    }
    const erasedBefore = await isMemberErased(manager, userId);
    await eraseMemberTraces(manager, userId);
    if (erasedBefore) return;
    const standIn = await this.store.pseudonymise(manager, userId);
    await this.store.append(manager, { id, type: 'user.deleted', userId: standIn, occurredAt: timeOf(deletedAt) ?? timeOf(envelope.occurredAt) ?? new Date() });
    this.logger.info('member pseudonymised in the analytics store');
  }
}
