import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ChatExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { isoTime } from '../chat/chat-mapper';

interface ExportRow {
  conversation_id: string;
  with_user_id: string;
  matched_at: Date;
  closed: boolean;
  id: string | null;
  seq: number | null;
  sent: boolean | null;
  content: string | null;
  created_at: Date | null;
  is_read: boolean | null;
}

/**
 * Chat's part of a member's data export: every conversation of the member, open or closed, with
 * every message sent and received (their own correspondence, the history a re-match hid
 * included) and whether its recipient read it. The other member appears only by id.
 */
@Injectable()
export class ChatMemberExporter implements MemberExporter<ChatExportPart> {
  constructor(private readonly dataSource: DataSource) {}

  async exportMember(userId: string): Promise<ChatExportPart> {
    const rows: ExportRow[] = await this.dataSource.query(
      `SELECT c.id AS conversation_id,
              CASE WHEN c.member_a = $1::uuid THEN c.member_b ELSE c.member_a END AS with_user_id,
              c.matched_at, (c.closed_at IS NOT NULL OR c.anonymised_at IS NOT NULL) AS closed,
              m.id, m.seq, m.sender_id = $1::uuid AS sent, m.content, m.created_at,
              m.seq <= CASE WHEN m.recipient_id = c.member_a THEN c.a_read_seq ELSE c.b_read_seq END AS is_read
         FROM conversation c LEFT JOIN message m ON m.conversation_id = c.id
        WHERE c.member_a = $1::uuid OR c.member_b = $1::uuid
        ORDER BY c.matched_at, c.id, m.seq`,
      [userId],
    );
    const conversations = new Map<string, ChatExportPart['conversations'][number]>();
    for (const r of rows) {
      let conversation = conversations.get(r.conversation_id);
      if (!conversation) {
        conversation = { withUserId: r.with_user_id, createdAt: isoTime(r.matched_at), closed: r.closed, messages: [] };
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
