import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { NotificationPreferencesDto, NotificationType } from '@mate/contracts';
import { CLOCK, isMemberErased, LOGGER, MemberSuspensions, PairStates, PresenceReader, type Clock } from '@mate/server-kit';
import { PushBursts } from './push-bursts';
import { PushQueue } from './push-queue';
import { PushSettings } from './push-settings';
import { newMessagePush, type PushContent } from './push-texts';
import { PushRepository } from './push.repository';

type Queryable = Pick<EntityManager, 'query'>;

export interface PushRequest {
  /** What caused it (an event id, a burst job id): the same cause never pushes twice to a device. */
  cause: string;
  userId: string;
  type: NotificationType;
  /** The member the push is about: nothing is pushed while the two are a blocked pair, or they are suspended. */
  aboutId?: string;
  content: (preferences: NotificationPreferencesDto) => PushContent;
}

/**
 * Decides whether a member is told, and hands each device's push to the queue: only with VAPID
 * keys, only when the member's switch for that type is on, never between a blocked pair, never
 * to or about a suspended member, and a message only to a member with no connected socket, once per burst.
 */
@Injectable()
export class PushNotifier {
  constructor(
    private readonly settings: PushSettings,
    private readonly repository: PushRepository,
    private readonly suspensions: MemberSuspensions,
    private readonly pairs: PairStates,
    private readonly queue: PushQueue,
    private readonly bursts: PushBursts,
    private readonly presence: PresenceReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Returns how many devices a push was queued for. */
  async notify(q: Queryable, request: PushRequest): Promise<number> {
    if (!this.settings.configured) return 0;
    const preferences = await this.repository.preferencesOf(request.userId, q);
    if (!preferences[request.type]) return 0;
    if (request.aboutId && (await this.pairs.isBlocked(request.userId, request.aboutId, q)))
      return 0;
    // Nothing to a suspended member, nor about one (a like from them, a match with them; issue 13).
    const involved = request.aboutId ? [request.userId, request.aboutId] : [request.userId];
    if (await this.suspensions.anySuspended(involved, q)) return 0;
    // Nor about a member deleted meanwhile (a burst that ends after its sender's erasure; ADR 0016).
    if (request.aboutId && (await isMemberErased(q, request.aboutId))) return 0;
    const subscriptions = await this.repository.subscriptionsOf(request.userId, q);
    if (subscriptions.length === 0) return 0;
    const payload = { ...request.content(preferences), sentAt: this.clock.now().toISOString() };
    for (const s of subscriptions) await this.queue.send(request.cause, { subscriptionId: s.id, payload });
    return subscriptions.length;
  }

  /** message.sent: counted in its conversation's burst; the first of a burst schedules its end. */
  async messageSent(recipientId: string, senderId: string, messageId: string): Promise<void> {
    if (!this.settings.configured) return;
    const token = await this.bursts.add(recipientId, senderId, messageId);
    if (token) await this.queue.endBurstLater(token, { recipientId, senderId });
  }

  /**
   * The collapse window is over: one push for the burst's messages, unless the recipient has a
   * connected socket now (the app shows the messages itself). Presence unreadable: the job fails
   * and retries rather than guess.
   */
  async endBurst(
    cause: string,
    q: Queryable,
    recipientId: string,
    senderId: string,
  ): Promise<'pushed' | 'online' | 'empty' | 'not-pushed'> {
    const online = await this.presence.isOnline(recipientId);
    const count = await this.bursts.take(recipientId, senderId);
    if (count === 0) return 'empty';
    if (online) return 'online';
    const senderName = await this.repository.nameOf(senderId, q);
    const devices = await this.notify(q, {
      cause,
      userId: recipientId,
      type: 'newMessages',
      aboutId: senderId,
      content: (p) => newMessagePush(senderId, senderName, count, p.privatePreviews),
    });
    this.logger.debug({ recipientId, count, devices }, 'message burst ended');
    return devices > 0 ? 'pushed' : 'not-pushed';
  }
}
