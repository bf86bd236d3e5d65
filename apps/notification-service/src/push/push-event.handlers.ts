import { Injectable } from '@nestjs/common';
import { PairStates, type EventHandlers } from '@mate/server-kit';
import { PushNotifier } from './push-notifier';
import { newLikePush, newMatchPush, photoRejectedPush, reportReceivedPush } from './push-texts';
import { PushRepository } from './push.repository';

/**
 * The events pushes come from, and the projection they read of names (profile.updated); members'
 * suspension and the pairs' block state (pair events, ADR 0014) are the kit's projections
 * (AppModule's `projections`). Each runs in the consumer's transaction; the pushes
 * it queues carry the event id, so a redelivered event queues nothing new. Payloads arrive read
 * against their catalogue class (ids lower case, a pair ascending).
 */
@Injectable()
export class PushEventHandlers {
  constructor(
    private readonly notifier: PushNotifier,
    private readonly repository: PushRepository,
    private readonly pairs: PairStates,
  ) {}

  handlers(): EventHandlers {
    return {
      'profile.updated': async (payload, manager, envelope) => {
        const name = payload.name?.slice(0, 100) ?? null;
        await this.repository.saveMemberName(manager, payload.userId, name, envelope.aggregateVersion ?? 0);
      },
      // A like that made a match is told by match.created; the liker is never named.
      'like.created': async (payload, manager, envelope) => {
        if (payload.matched) return;
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId: payload.likedId,
          type: 'newLikes',
          aboutId: payload.likerId,
          content: () => newLikePush(),
        });
      },
      'match.created': async (payload, manager, envelope) => {
        const [a, b] = payload.userIds;
        // A match made before a pair event it has not seen (a block, an unmatch) is over already
        // (ADR 0014): a late match.created tells nobody.
        if (
          payload.pairVersion !== undefined &&
          payload.pairVersion < (await this.pairs.pairVersion(a, b, manager))
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
      'message.sent': async (payload) => {
        await this.notifier.messageSent(payload.recipientId, payload.senderId, payload.messageId);
      },
      'report.created': async (payload, manager, envelope) => {
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId: payload.reporterId,
          type: 'safetyAlerts',
          content: () => reportReceivedPush(payload.reportId),
        });
      },
      // An admin rejected one of the member's photos (issue 13): the owner is told why, under
      // their admin-actions switch (never while suspended; an erased member has no devices).
      'photo.moderated': async (payload, manager, envelope) => {
        if (payload.outcome !== 'rejected') return;
        await this.notifier.notify(manager, {
          cause: envelope.id,
          userId: payload.userId,
          type: 'adminActions',
          content: () => photoRejectedPush(payload.photoId, payload.reason),
        });
      },
    };
  }
}
