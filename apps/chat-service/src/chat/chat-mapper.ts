import type { ChatMessageDto } from '@mate/contracts';

/** A message as the statements answer it (row_to_json gives times as text). */
export interface StoredMessage {
  id: string;
  conversation_id: string;
  seq: number;
  sender_id: string;
  recipient_id: string;
  client_id: string;
  content: string;
  created_at: Date | string;
}

export const isoTime = (t: Date | string): string => new Date(t).toISOString();

/** ChatMessageDto of a stored message: read when its seq is within the recipient's read position. */
export function toChatMessage(m: StoredMessage, recipientReadSeq: number, senderName: string | null): ChatMessageDto {
  return {
    id: m.id,
    seq: m.seq,
    senderId: m.sender_id,
    recipientId: m.recipient_id,
    content: m.content,
    createdAt: isoTime(m.created_at),
    isRead: m.seq <= recipientReadSeq,
    senderName,
    clientId: m.client_id,
  };
}
