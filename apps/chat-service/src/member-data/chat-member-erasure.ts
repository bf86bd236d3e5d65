import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { orderedPairOf } from '@mate/contracts';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { ChatRateLimiter } from '../chat/chat-rate-limits';
import { ConversationRepository } from '../chat/conversation.repository';
import { ConversationsService } from '../chat/conversations.service';
import { MemberRepository } from '../chat/member.repository';
import { MessageRepository } from '../chat/message.repository';
import { PairRepository } from '../chat/pair.repository';

/**
 * `user.deleted` in chat (README "Member data", docs/adr/0016-member-data.md): the messages the
 * member sent are deleted; a conversation with messages of the other member stays for them under
 * a fresh random id for the deleted member (one per conversation, so two cannot be linked), shown
 * as DELETED_MEMBER_NAME with no picture, read-only (`anonymised_at`); a conversation with nothing
 * of the other member's goes. The member's projections (name and picture, pair states, ended
 * matches), the kit's traces and the member's rate-limit keys go. Idempotent: a second run finds
 * nothing of the member.
 */
@Injectable()
export class ChatMemberErasure {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly conversations: ConversationsService,
    private readonly limits: ChatRateLimiter,
    private readonly conversationRepository: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly pairs: PairRepository,
    private readonly members: MemberRepository,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);

    // A send to one of these conversations waits for this transaction, then finds no pair of the
    // deleted member's id any more (its row was moved or deleted): refused as for a stranger.
    const conversations = await this.conversationRepository.lockConversationsOf(manager, userId);
    await this.messages.deleteSentBy(manager, userId);
    let anonymised = 0;
    for (const c of conversations) {
      const other = c.member_a === userId ? c.member_b : c.member_a;
      if ((await this.messages.countIn(manager, c.id)) === 0) {
        await this.conversationRepository.delete(manager, c.id);
        // Both members deleted: the first one's anonymous stand-in goes with the conversation.
        await this.members.dropStandIn(manager, other);
      } else {
        const anonymousId = randomUUID();
        const [a, b] = orderedPairOf(other, anonymousId);
        await this.conversationRepository.anonymise(manager, c.id, userId, anonymousId, a, b);
        await this.members.addStandIn(manager, anonymousId);
        anonymised++;
      }
      this.conversations.pairChanged(c.member_a, c.member_b, false);
    }
    await this.pairs.forgetMember(manager, userId);
    await this.members.forget(manager, userId);
    // Expire within seconds anyway; a retry of the handler deletes them again.
    await this.limits.forget(userId);
    this.logger.info({ conversations: conversations.length, anonymised }, 'member erased from chat');
  }
}
