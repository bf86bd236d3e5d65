import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type {
  EventEnvelope,
  MatchEndedPayload,
  UserBlockedPayload,
  UserSuspendedPayload,
  UserUnblockedPayload,
  UserUnsuspendedPayload,
} from '@mate/contracts';
import { LOGGER, type EventHandlers } from '@mate/server-kit';
import { PushNotifier } from './push-notifier';
import { newLikePush, newMatchPush, photoRejectedPush, reportReceivedPush } from './push-texts';
import { PushRepository } from './push.repository';

type PairEventName = 'user.blocked' | 'user.unblocked' | 'match.ended';
type PairEventPayload = UserBlockedPayload | UserUnblockedPayload | MatchEndedPayload;

const memberId = (value: unknown): string | null =>
  typeof value === 'string' && isUUID(value) ? value.toLowerCase() : null;

/**
 * The events pushes come from, and the projections they read: names (profile.updated), members'
 * suspension (user.suspended, user.unsuspended) and the pairs' block state (pair events, ADR 0014). Each runs in the consumer's transaction; the pushes
 * it queues carry the event id, so a redelivered event queues nothing new.
 */
@Injectable()
export class PushEventHandlers {
  constructor(
    private readonly notifier: PushNotifier,
    private readonly repository: PushRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  handlers(): EventHandlers {
    return {
      'profile.updated': async (payload, manager, envelope) => {
        const userId = memberId(payload.userId);
        if (!userId) return;
        const name = typeof payload.name === 'string' ? payload.name.slice(0, 100) : null;
        await this.repository.saveMemberName(manager, userId, name, envelope.aggregateVersion ?? 0);
      },
      // A like that made a match is told by match.created; the liker is never named.
      'like.created': async (payload, manager, envelope) => {
        const [likerId, likedId] = [memberId(payload.likerId), memberId(payload.likedId)];
        if (!likerId || !likedId || payload.matched === true) return;
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId: likedId,
          type: 'newLikes',
          aboutId: likerId,
          content: () => newLikePush(),
        });
      },
      'match.created': async (payload, manager, envelope) => {
        const ids = Array.isArray(payload.userIds) ? payload.userIds.map(memberId) : [];
        if (ids.length !== 2 || !ids[0] || !ids[1] || ids[0] === ids[1]) return this.unreadable(envelope);
        const [a, b] = ids as [string, string];
        // A match made before a pair event it has not seen (a block, an unmatch) is over already
        // (ADR 0014): a late match.created tells nobody.
        if (
          typeof payload.pairVersion === 'number' &&
          payload.pairVersion < (await this.repository.pairVersionOf(a, b, manager))
        )
          return;
        for (const [me, other] of [
          [a, b],
          [b, a],
        ] as const) {
          const otherName = await this.repository.nameOf(other, manager);
          await this.notifier.notify(manager, {
            cause: envelope.id,
            userId: me,
            type: 'newMatches',
            aboutId: other,
            content: (p) => newMatchPush(other, otherName, p.privatePreviews),
          });
        }
      },
      'message.sent': async (payload, _manager, envelope) => {
        const [senderId, recipientId] = [memberId(payload.senderId), memberId(payload.recipientId)];
        const messageId = typeof payload.messageId === 'string' ? payload.messageId : envelope.id;
        if (!senderId || !recipientId) return this.unreadable(envelope);
        await this.notifier.messageSent(recipientId, senderId, messageId);
      },
      'report.created': async (payload, manager, envelope) => {
        const reporterId = memberId(payload.reporterId);
        if (!reporterId) return this.unreadable(envelope);
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId: reporterId,
          type: 'safetyAlerts',
          content: () => reportReceivedPush(String(payload.reportId)),
        });
      },
      // An admin rejected one of the member's photos (issue 13): the owner is told why, under
      // their admin-actions switch (never while suspended; an erased member has no devices).
      'photo.moderated': async (payload, manager, envelope) => {
        if (payload.outcome !== 'rejected') return;
        const userId = memberId(payload.userId);
        const photoId = memberId(payload.photoId);
        if (!userId || !photoId) return this.unreadable(envelope);
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId,
          type: 'adminActions',
          content: () => photoRejectedPush(photoId, typeof payload.reason === 'string' ? payload.reason : null),
        });
      },
      // The member's whole suspension state (auth-service; only the newest is applied): while
      // suspended, nothing is pushed to them or about them (PushNotifier.notify).
      'user.suspended': async (payload, manager, envelope) =>
        this.applySuspension(manager, payload, envelope),
      'user.unsuspended': async (payload, manager, envelope) =>
        this.applySuspension(manager, payload, envelope),
      'user.blocked': (payload, manager, envelope) => this.applyPairEvent(manager, payload, envelope),
      'user.unblocked': (payload, manager, envelope) => this.applyPairEvent(manager, payload, envelope),
      'match.ended': (payload, manager, envelope) => this.applyPairEvent(manager, payload, envelope),
    };
  }

  private async applySuspension(
    manager: EntityManager,
    payload: UserSuspendedPayload | UserUnsuspendedPayload,
    envelope: EventEnvelope<'user.suspended' | 'user.unsuspended'>,
  ) {
    const userId = memberId(payload.userId);
    if (!userId) return this.unreadable(envelope);
    await this.repository.saveSuspension(manager, userId, payload.suspended === true);
  }

  private async applyPairEvent(
    manager: EntityManager,
    payload: PairEventPayload,
    envelope: EventEnvelope<PairEventName>,
  ) {
    const ids = Array.isArray(payload.userIds) ? payload.userIds.map(memberId) : [];
    if (ids.length !== 2 || !ids[0] || !ids[1] || ids[0] === ids[1]) return this.unreadable(envelope);
    // Fail closed: a block whose state cannot be read still blocks.
    const blocked = Array.isArray(payload.blockedBy)
      ? payload.blockedBy.length > 0
      : envelope.name === 'user.blocked';
    await this.repository.savePairState(manager, ids[0], ids[1], blocked, envelope.aggregateVersion ?? null);
  }

  private unreadable(envelope: EventEnvelope) {
    this.logger.error(
      { eventId: envelope.id, name: envelope.name },
      'event with an unreadable payload skipped',
    );
  }
}
