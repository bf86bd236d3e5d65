import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserSuspendedPayload, UserUnsuspendedPayload } from '@mate/contracts';
import { projectedMatchOf, type EventHandlers, type EventHandlerSet, type ProjectedMatch } from '@mate/server-kit';
import { ConversationsService } from './conversations.service';
import { ChatMemberErasure } from '../member-data/chat-member-erasure';
import { MemberRepository } from './member.repository';
import { PairRepository } from './pair.repository';

/**
 * Events chat-service consumes. The consumer runs each once per event id, in one transaction, and
 * a state-carrying one (profile.updated, a member's suspension, safety's pair events) only when its version is newer
 * than the one applied for its aggregate. Payloads arrive read against their catalogue class (ids
 * lower case, a pair ascending): nothing here checks them again.
 */
@Injectable()
export class ChatEventHandlers implements EventHandlerSet {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly erasure: ChatMemberErasure,
    private readonly pairs: PairRepository,
    private readonly members: MemberRepository,
  ) {}

  handlers(): EventHandlers {
    return {
      'match.created': (payload, manager) => this.openConversation(manager, projectedMatchOf(payload)),
      // The name and picture conversations show; an older version never overwrites a newer one.
      'profile.updated': (payload, manager, envelope) =>
        this.members.saveProfile(manager, payload, envelope.aggregateVersion ?? 0),
      'user.blocked': (payload, manager) => this.settlePair(manager, payload.userIds),
      'user.unblocked': (payload, manager) => this.settlePair(manager, payload.userIds),
      'match.ended': (payload, manager) => this.settlePair(manager, payload.userIds),
      'user.suspended': async (payload) => this.applySuspension(payload),
      'user.unsuspended': async (payload) => this.applySuspension(payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload.userId),
    };
  }

  /**
   * Opens the pair's conversation (its id is the first match's id) unless safety ended the match,
   * one of the two blocks the other, or a pair event newer than the match's `pairVersion` was
   * applied (then it is recorded closed; pair.repository.ts liveMatch). A newer match replaces an
   * ended one and reopens the conversation with the older history hidden from both members. A
   * redelivery of the same match, or an older one, changes nothing.
   */
  async openConversation(manager: EntityManager, match: ProjectedMatch): Promise<void> {
    const open = await this.pairs.recordMatch(manager, match);
    if (open !== null) this.conversations.pairChanged(match.a, match.b, open);
  }

  /**
   * user.blocked, user.unblocked, match.ended: one aggregate per pair, applied in version order,
   * each carrying the pair's whole block state. Every one means "the pair has no match now": the
   * pair's conversation closes (history kept for moderation) and stays closed while either blocks
   * the other; an unblock reopens nothing (a new match does). The kit's pair projection records it
   * first, in this transaction (AppModule's `projections`), even when the pair has no conversation
   * yet, so a match.created that arrives later finds it; chat's own part settles the pair's
   * conversation (the pair ascending, as the consumer read it).
   */
  async settlePair(manager: EntityManager, [a, b]: readonly [string, string]): Promise<void> {
    const open = await this.pairs.settlePair(manager, a, b);
    // Typing on this replica stops at once (others within CHAT_TYPING_PAIR_CACHE_MS).
    this.conversations.pairChanged(a, b, open);
  }

  /**
   * user.suspended / user.unsuspended (auth-service, the whole suspension state; the consumer
   * applies only the newest per member), after the kit's projection recorded it in this
   * transaction (AppModule's `projections`): while suspended, no message is stored to or from the
   * member and no typing relayed (SEND_BATCH_SQL, OPEN_PAIR_SQL read the projection). Conversations
   * stay listed and readable: they are the other member's matches, and an unsuspend restores them as
   * they were. Chat's own part: this replica's typing cache learns it at once.
   */
  applySuspension(payload: UserSuspendedPayload | UserUnsuspendedPayload): void {
    this.conversations.suspensionChanged(payload.userId, payload.suspended);
  }
}
