import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import {
  CHAT_CLIENT_ID_PATTERN,
  CHAT_MESSAGE_MAX_LENGTH,
  CHAT_SYNC_MAX_CONVERSATIONS,
  CONVERSATION_MAX_LIMIT,
  CONVERSATION_PAGE_SIZE,
  ChatErrorCode,
  ChatMessages,
  messageLength,
  normalizeMessageContent,
  PAIR_SNAPSHOT_MAX_LIMIT,
  type AuthPrincipal,
  REPORT_MESSAGE_SNAPSHOT_SIZE,
  type MarkAsReadPayload,
  type RecipientPayload,
  type SendMessagePayload,
  type SyncMessagesPayload,
} from '@mate/contracts';
import { badRequest, QueryInteger, type AppException, type SenderCheckedPayload } from '@mate/server-kit';

/**
 * The most characters (UTF-16 units) `content` may have as sent, before normalizing: a cap on the
 * work a hostile payload can cause. 2,000 code points are at most 4,000 units; control characters
 * the normalizer strips get room to spare.
 */
export const RAW_CONTENT_MAX_LENGTH = 8_000;

/** Largest sequence number a cursor may name (a PostgreSQL int). */
const MAX_SEQ = 2_147_483_647;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${CONVERSATION_MAX_LIMIT}`;
const CURSOR_MESSAGE = (name: string) => `${name} must be a whole number of at least 0`;

/** Why a message's content, once normalized as it is stored, is refused: nothing left, or over 2,000 characters. */
function contentRefusal(content: string): string | null {
  const normalized = normalizeMessageContent(content);
  if (normalized.length === 0) return ChatMessages.emptyMessage;
  return messageLength(normalized) > CHAT_MESSAGE_MAX_LENGTH ? ChatMessages.tooLong : null;
}

/** The content's rules after normalizing (empty, 2,000), checked with the other fields: before the send is counted. */
const IsMessageContent = () =>
  ValidateBy({
    name: 'isMessageContent',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && contentRefusal(value) === null,
      defaultMessage: (args) => contentRefusal(String(args?.value ?? '')) ?? ChatMessages.emptyMessage,
    },
  });

/** `send_message`: its fields, the content as it will be stored, and not to oneself, all before it is counted. */
export class SendMessageDto implements SendMessagePayload, SenderCheckedPayload {
  @IsUUID('all', { message: 'recipientId must be a UUID' })
  @IsString({ message: 'recipientId must be a UUID' })
  recipientId!: string;

  @IsMessageContent()
  @MaxLength(RAW_CONTENT_MAX_LENGTH, { message: ChatMessages.tooLong })
  @IsString({ message: 'content must be text' })
  content!: string;

  @IsOptional()
  @Matches(CHAT_CLIENT_ID_PATTERN, { message: ChatMessages.invalidClientId })
  @IsString({ message: ChatMessages.invalidClientId })
  clientId?: string;

  refusalFor(sender: AuthPrincipal): AppException | null {
    return this.recipientId.toLowerCase() === sender.userId
      ? badRequest(ChatMessages.messageSelf, ChatErrorCode.MessageSelf)
      : null;
  }
}

/** `typing` and `stop_typing`. */
export class RecipientDto implements RecipientPayload {
  @IsUUID('all', { message: 'recipientId must be a UUID' })
  @IsString({ message: 'recipientId must be a UUID' })
  recipientId!: string;
}

/** `mark_as_read`. */
export class MarkAsReadDto implements MarkAsReadPayload {
  @IsUUID('all', { message: 'otherUserId must be a UUID' })
  @IsString({ message: 'otherUserId must be a UUID' })
  otherUserId!: string;
}

/** One conversation of `sync_messages`: the other member and the last sequence the client holds. */
export class SyncPositionDto {
  @IsUUID('all', { message: 'conversations.userId must be a UUID' })
  @IsString({ message: 'conversations.userId must be a UUID' })
  userId!: string;

  @Max(MAX_SEQ, { message: CURSOR_MESSAGE('afterSeq') })
  @Min(0, { message: CURSOR_MESSAGE('afterSeq') })
  @IsInt({ message: CURSOR_MESSAGE('afterSeq') })
  afterSeq!: number;
}

/** `sync_messages`. */
export class SyncMessagesDto implements SyncMessagesPayload {
  @IsOptional()
  @ValidateNested({ each: true })
  @IsDefined({ each: true })
  @Type(() => SyncPositionDto)
  @ArrayMaxSize(CHAT_SYNC_MAX_CONVERSATIONS, {
    message: `conversations may name at most ${CHAT_SYNC_MAX_CONVERSATIONS} conversations`,
  })
  @IsArray({ message: 'conversations must be a list' })
  conversations?: SyncPositionDto[];

  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'since must be an ISO 8601 time' })
  @IsString({ message: 'since must be an ISO 8601 time' })
  since?: string;
}

/** `GET /api/chat/conversation/{userId}?limit=50[&before=N | &after=N]`. */
export class ConversationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CONVERSATION_MAX_LIMIT, default: CONVERSATION_PAGE_SIZE })
  @IsOptional()
  @QueryInteger()
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(CONVERSATION_MAX_LIMIT, { message: LIMIT_MESSAGE })
  @IsInt({ message: LIMIT_MESSAGE })
  limit: number = CONVERSATION_PAGE_SIZE;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Older messages: those with a lower seq' })
  @IsOptional()
  @QueryInteger()
  @Max(MAX_SEQ, { message: CURSOR_MESSAGE('before') })
  @Min(0, { message: CURSOR_MESSAGE('before') })
  @IsInt({ message: CURSOR_MESSAGE('before') })
  before?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Newer messages: those with a higher seq (resume)' })
  @IsOptional()
  @QueryInteger()
  @Max(MAX_SEQ, { message: CURSOR_MESSAGE('after') })
  @Min(0, { message: CURSOR_MESSAGE('after') })
  @IsInt({ message: CURSOR_MESSAGE('after') })
  after?: number;
}

const SNAPSHOT_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAIR_SNAPSHOT_MAX_LIMIT}`;

/** `GET /internal/chat/pairs/{a}/{b}/messages?before=ISO&limit=20` (moderation snapshot). */
export class PairSnapshotQueryDto {
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'before must be an ISO 8601 time' })
  @IsString({ message: 'before must be an ISO 8601 time' })
  before?: string;

  @IsOptional()
  @QueryInteger()
  @Min(1, { message: SNAPSHOT_LIMIT_MESSAGE })
  @Max(PAIR_SNAPSHOT_MAX_LIMIT, { message: SNAPSHOT_LIMIT_MESSAGE })
  @IsInt({ message: SNAPSHOT_LIMIT_MESSAGE })
  limit: number = REPORT_MESSAGE_SNAPSHOT_SIZE;
}
