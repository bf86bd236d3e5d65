import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { EventEnvelope, EventName, EventPayloads } from '@mate/contracts';
import { eraseMemberTraces, isMemberErased, LOGGER, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';
import { AnalyticsEventsRepository, type AnalyticsFact } from './analytics-events.repository';

type Read<N extends EventName> = (payload: EventPayloads[N], envelope: EventEnvelope<N>) => AnalyticsFact;

/**
 * Every event admin-service consumes feeds the analytics event store: one fact per event id
 * (the consumer runs each handler once per id, in its transaction, with the payload read against
 * its catalogue class: ids lower case, a report reason this build does not know read as `other`).
 * `user.suspended` and `user.unsuspended` also set the member's suspension state (only a newer
 * version wins); `user.deleted` replaces the member's id everywhere with one fresh random id.
 */
@Injectable()
export class AnalyticsEventHandlers implements EventHandlerSet {
  constructor(
    private readonly store: AnalyticsEventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  handlers(): EventHandlers {
    return {
      'user.registered': this.fact((p, e) => memberFact(e, p.userId, p.registeredAt)),
      'user.verified': this.fact((p, e) => memberFact(e, p.userId, p.verifiedAt)),
      'onboarding.completed': this.fact((p, e) => memberFact(e, p.userId, p.completedAt, { skipped: p.skipped })),
      'photo.uploaded': this.fact((p, e) => ({ ...memberFact(e, p.userId, p.uploadedAt), subjectId: p.photoId })),
      'photo.deleted': this.fact((p, e) => ({ ...memberFact(e, p.userId, p.deletedAt), subjectId: p.photoId })),
      'photo.moderated': this.fact((p, e) => ({
        ...memberFact(e, p.userId, p.at, { outcome: p.outcome, riskScore: p.riskScore, hidden: p.hidden }),
        subjectId: p.photoId,
      })),
      'like.created': this.fact((p, e) => pairFact(e, p.likerId, p.likedId, p.createdAt, null, { matched: p.matched })),
      'pass.created': this.fact((p, e) => pairFact(e, p.passerId, p.passedId, p.createdAt, null)),
      'match.created': this.fact((p, e) => pairFact(e, p.userIds[0], p.userIds[1], p.createdAt, p.matchId)),
      'message.sent': this.fact((p, e) =>
        pairFact(e, p.senderId, p.recipientId, p.sentAt, p.conversationId, { first: p.first, seq: p.seq }),
      ),
      'call.ended': this.fact((p, e) =>
        pairFact(e, p.callerId, p.calleeId, p.endedAt, p.callId, { status: p.status, durationSeconds: Math.round(p.durationSeconds) }),
      ),
      'report.created': this.fact((p, e) => pairFact(e, p.reporterId, p.reportedId, p.createdAt, p.reportId, { reason: p.reason })),
      'report.resolved': this.fact((p, e) =>
        pairFact(e, p.reporterId, p.reportedId, p.resolvedAt, p.reportId, {
          reason: p.reason,
          status: p.status,
          reportedAt: new Date(p.reportedAt).toISOString(),
        }),
      ),
      'user.blocked': this.fact((p, e) => pairFact(e, p.blockerId, p.blockedId, p.blockedAt, null)),
      'member.active': this.fact((p, e) => ({ ...memberFact(e, p.userId, p.at), day: p.day })),
      'user.suspended': (payload, manager, envelope) => this.suspension(manager, memberFact(envelope, payload.userId, payload.suspendedAt), true, envelope),
      'user.unsuspended': (payload, manager, envelope) =>
        this.suspension(manager, memberFact(envelope, payload.userId, payload.unsuspendedAt), false, envelope),
      'user.deleted': (payload, manager, envelope) => this.erase(manager, envelope, payload.userId, payload.deletedAt),
    };
  }

  /** A handler that stores the fact `read` makes of the event. */
  private fact<N extends EventName>(read: Read<N>) {
    return async (payload: EventPayloads[N], manager: EntityManager, envelope: EventEnvelope<N>): Promise<void> => {
      await this.store.append(manager, read(payload, envelope));
    };
  }

  /** The fact, and the member's suspension state when this version is newer than the one kept. */
  private async suspension(manager: EntityManager, fact: AnalyticsFact & { userId: string }, suspended: boolean, envelope: EventEnvelope): Promise<void> {
    await this.store.append(manager, fact);
    await this.store.applySuspension(manager, fact.userId, suspended, envelope.aggregateVersion ?? 0, fact.occurredAt);
  }

  /**
   * `user.deleted`: the kit's traces go (ADR 0016) and every fact of the member keeps its place in
   * the aggregates under one fresh random id; the deletion itself is stored under that id too (the
   * growth chart's total drops on that day). A repeated deletion of an erased member changes nothing.
   */
  private async erase(manager: EntityManager, envelope: EventEnvelope, userId: string, deletedAt: string): Promise<void> {
    const erasedBefore = await isMemberErased(manager, userId);
    await eraseMemberTraces(manager, userId);
    if (erasedBefore) return;
    const standIn = await this.store.pseudonymise(manager, userId);
    await this.store.append(manager, { id: envelope.id.toLowerCase(), type: 'user.deleted', userId: standIn, occurredAt: new Date(deletedAt) });
    this.logger.info('member pseudonymised in the analytics store');
  }
}

/** A fact about one member, under the event's id (lower case, the one spelling the store keeps). */
function memberFact(envelope: EventEnvelope, userId: string, at: string, props: Record<string, unknown> = {}): AnalyticsFact & { userId: string } {
  return { id: envelope.id.toLowerCase(), type: envelope.name, userId, occurredAt: new Date(at), props };
}

/** A fact about two members (the first the one who acted) and what it concerns. */
function pairFact(
  envelope: EventEnvelope,
  userId: string,
  otherUserId: string,
  at: string,
  subjectId: string | null,
  props: Record<string, unknown> = {},
): AnalyticsFact {
  return { ...memberFact(envelope, userId, at, props), otherUserId, subjectId };
}
