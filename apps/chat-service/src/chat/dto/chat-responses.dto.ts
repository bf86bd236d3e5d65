import { ApiProperty } from '@nestjs/swagger';
import type {
  ChatMessageDto,
  ConversationPageDto,
  ConversationSummaryDto,
  MarkReadResultDto,
  UnreadCountDto,
} from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class ChatMessageResponseDto implements ChatMessageDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Per-conversation sequence number' }) seq!: number;
  @ApiProperty({ format: 'uuid' }) senderId!: string;
  @ApiProperty({ format: 'uuid' }) recipientId!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty() isRead!: boolean;
  @ApiProperty({ type: String, nullable: true }) senderName!: string | null;
  @ApiProperty({ type: String, nullable: true }) clientId!: string | null;
}

export class ConversationSummaryResponseDto implements ConversationSummaryDto {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ type: String, nullable: true }) userName!: string | null;
  @ApiProperty({ type: String, nullable: true }) profilePicture!: string | null;
  @ApiProperty({ type: 'integer' }) unreadCount!: number;
  @ApiProperty({ type: String, nullable: true, description: "Null while empty: 'Start a conversation'" })
  lastMessage!: string | null;
  @ApiProperty({ format: 'date-time' }) lastMessageTime!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) lastMessageSenderId!: string | null;
  @ApiProperty({ type: 'integer' }) lastSeq!: number;
  @ApiProperty({ format: 'date-time' }) matchedAt!: string;
}

export class ConversationPageResponseDto implements ConversationPageDto {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ type: [ChatMessageResponseDto], description: 'Ascending seq' }) messages!: ChatMessageResponseDto[];
  @ApiProperty() hasMore!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) nextBefore!: number | null;
  @ApiProperty({ type: 'integer' }) lastSeq!: number;
}

export class MarkReadResultResponseDto implements MarkReadResultDto {
  @ApiProperty({ type: 'integer' }) readUpTo!: number;
}

export class UnreadCountResponseDto implements UnreadCountDto {
  @ApiProperty({ type: 'integer' }) count!: number;
}
