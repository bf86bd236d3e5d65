import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import {
  CALL_HISTORY_MAX_LIMIT,
  CALL_HISTORY_STATUSES,
  CallErrorCode,
  CallMessages,
  type AuthPrincipal,
  type CallHistoryStatus,
  type CallInitiatePayload,
  type CallPeerPayload,
  type CallSignalPayload,
  type SubtitlePayload,
} from '@mate/contracts';
import { badRequest, QueryInteger, type AppException, type SenderCheckedPayload } from '@mate/server-kit';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Raw subtitle text accepted before normalizing (the normalized text is at most SUBTITLE_MAX_LENGTH). */
export const RAW_SUBTITLE_MAX_LENGTH = 2_000;

/**
 * `call:initiate`. `callerName` is accepted for the spec's shape and never used (the server sends
 * the profile name). A call to oneself is refused with the fields, before it counts.
 */
export class CallInitiateDto implements CallInitiatePayload, SenderCheckedPayload {
  @Transform(lower)
  @IsUUID('all', { message: 'to must be a UUID' })
  @IsString({ message: 'to must be a UUID' })
  to!: string;

  @IsOptional()
  @MaxLength(200, { message: 'callerName must be at most 200 characters' })
  @IsString({ message: 'callerName must be text' })
  callerName!: string;

  refusalFor(sender: AuthPrincipal): AppException | null {
    return this.to === sender.userId ? badRequest(CallMessages.callSelf, CallErrorCode.CallSelf) : null;
  }
}

/** `call:accept`, `call:reject`, `call:end`. */
export class CallPeerDto implements CallPeerPayload {
  @Transform(lower)
  @IsUUID('all', { message: 'to must be a UUID' })
  @IsString({ message: 'to must be a UUID' })
  to!: string;
}

/** `call:signal`: the signal is opaque (simple-peer's offer, answer or candidate), size-limited by the service. */
export class CallSignalDto implements CallSignalPayload {
  @Transform(lower)
  @IsUUID('all', { message: 'to must be a UUID' })
  @IsString({ message: 'to must be a UUID' })
  to!: string;

  @IsDefined({ message: 'signal is required' })
  signal!: unknown;
}

/** `subtitle`. */
export class SubtitleDto implements SubtitlePayload {
  @Transform(lower)
  @IsUUID('all', { message: 'recipientId must be a UUID' })
  @IsString({ message: 'recipientId must be a UUID' })
  recipientId!: string;

  @MaxLength(RAW_SUBTITLE_MAX_LENGTH, { message: 'text is too long' })
  @IsString({ message: 'text must be text' })
  text!: string;
}

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${CALL_HISTORY_MAX_LIMIT}`;

/** `GET /api/calls/history?limit&offset&status`. */
export class CallHistoryQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: CALL_HISTORY_MAX_LIMIT, default: 50 })
  @IsOptional()
  @QueryInteger()
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(CALL_HISTORY_MAX_LIMIT, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @QueryInteger()
  @IsInt({ message: 'offset must be a whole number of at least 0' })
  @Min(0, { message: 'offset must be a whole number of at least 0' })
  @Max(1_000_000, { message: 'offset must be at most 1000000' })
  offset?: number;

  @ApiPropertyOptional({ enum: CALL_HISTORY_STATUSES, description: 'Only calls of this status; absent: every call' })
  @IsOptional()
  @IsIn(CALL_HISTORY_STATUSES, { message: CallMessages.badHistoryStatus })
  status?: CallHistoryStatus;
}
