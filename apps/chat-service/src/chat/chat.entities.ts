import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The tables of src/migrations/1795600000000-CreateChat.ts. The hot paths use SQL (the repositories);
 * the entities describe the schema for TypeORM and for seeders.
 */
@Entity({ name: 'chat_member' })
export class ChatMember {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'profile_picture', type: 'text', nullable: true })
  profilePicture!: string | null;

  /** The profile aggregate version last applied. */
  @Column({ type: 'int', default: 0 })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/** One matched pair, `memberA < memberB`; open while `closedAt` is null. */
@Entity({ name: 'conversation' })
export class Conversation {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'member_a', type: 'uuid' })
  memberA!: string;

  @Column({ name: 'member_b', type: 'uuid' })
  memberB!: string;

  @Column({ name: 'match_id', type: 'uuid' })
  matchId!: string;

  @Column({ name: 'matched_at', type: 'timestamptz' })
  matchedAt!: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'last_seq', type: 'int', default: 0 })
  lastSeq!: number;

  @Column({ name: 'last_message_id', type: 'uuid', nullable: true })
  lastMessageId!: string | null;

  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true })
  lastMessageAt!: Date | null;

  @Column({ name: 'a_read_seq', type: 'int', default: 0 })
  aReadSeq!: number;

  @Column({ name: 'b_read_seq', type: 'int', default: 0 })
  bReadSeq!: number;

  @Column({ name: 'a_unread', type: 'int', default: 0 })
  aUnread!: number;

  @Column({ name: 'b_unread', type: 'int', default: 0 })
  bUnread!: number;

  /** Members see only the messages after this seq (set when a re-match reopens the conversation). */
  @Column({ name: 'history_from_seq', type: 'int', default: 0 })
  historyFromSeq!: number;
}

@Entity({ name: 'message' })
export class Message {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId!: string;

  @Column({ type: 'int' })
  seq!: number;

  @Column({ name: 'sender_id', type: 'uuid' })
  senderId!: string;

  @Column({ name: 'recipient_id', type: 'uuid' })
  recipientId!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

export const CHAT_ENTITIES = [ChatMember, Conversation, Message];
