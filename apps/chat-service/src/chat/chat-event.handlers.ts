import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import {
  matchCreatedFactOf,
  orderedPairOf,
  type EventEnvelope,
  type MatchCreatedPayload,
  type MatchEndedPayload,
  type ProfileUpdatedPayload,
  type UserBlockedPayload,
  type UserSuspendedPayload,
  type UserUnblockedPayload,
  type UserUnsuspendedPayload,
} from '@mate/contracts';
import { LOGGER, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';
import { ConversationsService } from './conversations.service';
import { ChatMemberErasure } from '../member-data/chat-member-erasure';
import { ENDED_MATCH_SQL, OPEN_MATCH_SQL, PAIR_LOCK_SQL, PAIR_STATE_SQL, SETTLE_PAIR_SQL } from './chat.sql';

type PairEventName = 'user.blocked' | 'user.unblocked' | 'match.ended';
type PairEventPayload = UserBlockedPayload | UserUnblockedPayload | MatchEndedPayload;

/**
 * Events chat-service consumes. The consumer runs each once per event id, in one transaction, and
 * a state-carrying one (profile.updated, a member's suspension, safety's pair events) only when its version is newer
 * than the one applied for its aggregate.
 */
@Injectable()
export class ChatEventHandlers implements EventHandlerSet {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly conversations: ConversationsService,
    private readonly erasure: ChatMemberErasure,
  ) {}

  handlers(): EventHandlers {
    return {
      'match.created': (payload, manager) => this.openConversation(manager, payload),
      'profile.updated': (payload, manager, envelope) => this.applyProfile(manager, payload, envelope),
      'user.blocked': (payload, manager, envelope) => this.applyPairEvent(manager, envelope.name, payload, envelope),
      'user.unblocked': (payload, manager, envelope) => this.applyPairEvent(manager, envelope.name, payload, envelope),
      'match.ended': (payload, manager, envelope) => this.applyPairEvent(manager, envelope.name, payload, envelope),
      'user.suspended': (payload, manager) => this.applySuspension(manager, payload),
      'user.unsuspended': (payload, manager) => this.applySuspension(manager, payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload.userId),
    };
  }

  /**
   * Opens the pair's conversation (its id is the first match's id) unless safety ended the match,
   * one of the two blocks the other, or a pair event newer than the match's `pairVersion` was
   * applied (then it is recorded closed; chat.sql.ts liveMatch). A newer match replaces an
   * ended one and reopens the conversation with the older history hidden from both members. A
   * redelivery of the same match, or an older one, changes nothing.
   */
  async openConversation(manager: EntityManager, payload: MatchCreatedPayload): Promise<void> {
    const match = matchCreatedFactOf(payload);
    if (!match) {
      // Retrying would not make it valid; it is kept in processed_event and skipped.
      this.logger.error({ matchId: payload.matchId }, 'match.created with an unreadable payload skipped');
      return;
    }
    const { matchId, userA: a, userB: b } = match;
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    // pairVersion: the pair version matching made the match under (null: an event from before versions).
    const written: { open: boolean }[] = await manager.query(OPEN_MATCH_SQL, [matchId, a, b, match.matchedAt, match.pairVersion]);
    if (written.length > 0) this.conversations.pairChanged(a, b, written[0].open);
  }

  /**
   * user.blocked, user.unblocked, match.ended: one aggregate per pair, applied in version order,
   * each carrying the pair's whole block state. Every one means "the pair has no match now": the
   * pair's conversation closes (history kept for moderation) and stays closed while either blocks
   * the other; an unblock reopens nothing (a new match does). Recorded even when the pair has no
   * conversation yet, so a match.created that arrives later finds it.
   */
  async applyPairEvent(
    manager: EntityManager,
    name: PairEventName,
    payload: PairEventPayload,
    envelope: EventEnvelope<PairEventName>,
  ): Promise<void> {
    const ids = Array.isArray(payload.userIds) ? payload.userIds : [];
    if (ids.length !== 2 || !ids.every((id) => typeof id === 'string' && isUUID(id)) || ids[0].toLowerCase() === ids[1].toLowerCase()) {
      this.logger.error({ eventId: envelope.id, name }, 'pair event with an unreadable payload skipped');
      return;
    }
    const [a, b] = orderedPairOf(ids[0].toLowerCase(), ids[1].toLowerCase());
    // Fail closed: a block whose state cannot be read still blocks.
    const blocked = Array.isArray(payload.blockedBy) ? payload.blockedBy.length > 0 : name === 'user.blocked';
    const at = this.eventTime(name, payload, envelope);
    const ended =
      name === 'user.blocked'
        ? (payload as UserBlockedPayload).endedMatchId
        : name === 'match.ended'
          ? (payload as MatchEndedPayload).matchId
          : null;

    await manager.query(PAIR_LOCK_SQL, [a, b]);
    await manager.query(PAIR_STATE_SQL, [a, b, blocked, at, envelope.aggregateVersion ?? null]);
    if (typeof ended === 'string' && isUUID(ended)) await manager.query(ENDED_MATCH_SQL, [ended.toLowerCase(), a, b]);
    const [settled]: { open: boolean }[][] = await manager.query(SETTLE_PAIR_SQL, [a, b]);
    // Typing on this replica stops at once (others within CHAT_TYPING_PAIR_CACHE_MS).
    this.conversations.pairChanged(a, b, settled?.[0]?.open ?? false);
  }

  /** When the pair event happened (its payload's time; the envelope's when unreadable). */
  private eventTime(name: PairEventName, payload: PairEventPayload, envelope: EventEnvelope<PairEventName>): Date {
    const stated =
      name === 'user.blocked'
        ? (payload as UserBlockedPayload).blockedAt
        : name === 'user.unblocked'
          ? (payload as UserUnblockedPayload).unblockedAt
          : (payload as MatchEndedPayload).endedAt;
    for (const t of [stated, envelope.occurredAt]) {
      const time = typeof t === 'string' ? new Date(t) : null;
      if (time && !Number.isNaN(time.getTime())) return time;
    }
    return new Date();
  }

  /**
   * user.suspended / user.unsuspended (auth-service, the whole suspension state; the consumer
   * applies only the newest per member): while suspended, no message is stored to or from the
   * member and no typing relayed (SEND_BATCH_SQL, OPEN_PAIR_SQL). Conversations stay listed and
   * readable: they are the other member's matches, and an unsuspend restores them as they were.
   */
  async applySuspension(manager: EntityManager, payload: UserSuspendedPayload | UserUnsuspendedPayload): Promise<void> {
    if (typeof payload.userId !== 'string' || !isUUID(payload.userId)) {
      this.logger.error('suspension event with an unreadable payload skipped');
      return;
    }
    const userId = payload.userId.toLowerCase();
    const suspended = payload.suspended === true;
    await manager.query(
      `INSERT INTO chat_member (user_id, suspended) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`,
      [userId, suspended],
    );
    this.conversations.suspensionChanged(userId, suspended);
  }

  /** The name and picture conversations show; an older version never overwrites a newer one. */
  async applyProfile(
    manager: EntityManager,
    payload: ProfileUpdatedPayload,
    envelope: EventEnvelope<'profile.updated'>,
  ): Promise<void> {
    if (typeof payload.userId !== 'string' || !isUUID(payload.userId)) return;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    await manager.query(
      `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE
         SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, version = EXCLUDED.version, updated_at = now()
         WHERE chat_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
      [payload.userId.toLowerCase(), text(payload.name), text(payload.profilePicture), envelope.aggregateVersion ?? 0],
    );
  }
}
