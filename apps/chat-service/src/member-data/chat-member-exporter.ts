import { Injectable } from '@nestjs/common';
import type { ChatExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { isoTime } from '../chat/chat-mapper';
import { ConversationRepository } from '../chat/conversation.repository';

/**
 * Chat's part of a member's data export: every conversation of the member, open or closed, with
 * every message sent and received (their own correspondence, the history a re-match hid
 * included) and whether its recipient read it. The other member appears only by id.
 */
@Injectable()
export class ChatMemberExporter implements MemberExporter<ChatExportPart> {
  constructor(private readonly conversations: ConversationRepository) {}

  async exportMember(userId: string): Promise<ChatExportPart> {
    const rows = await this.conversations.exportRowsOf(userId);
    const conversations = new Map<string, ChatExportPart['conversations'][number]>();
    for (const r of rows) {
      let conversation = conversations.get(r.conversation_id);
      if (!conversation) {
        conversation = {
          withUserId: r.with_user_id,
          createdAt: isoTime(r.matched_at),
          closed: r.closed,
          messages: [],
        };
        conversations.set(r.conversation_id, conversation);
      }
      if (r.id === null || r.seq === null || r.created_at === null || r.content === null) continue;
      conversation.messages.push({
        id: r.id,
        seq: r.seq,
        direction: r.sent ? 'sent' : 'received',
        content: r.content,
        createdAt: isoTime(r.created_at),
        readAt: null,
        isRead: r.is_read === true,
      });
    }
    return { conversations: [...conversations.values()] };
  }
}
