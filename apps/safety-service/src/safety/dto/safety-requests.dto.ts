import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import {
  BLOCK_REASON_MAX_LENGTH,
  DEFAULT_REPORT_REASON,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  SafetyMessages,
  type BlockRequestDto,
  type ReportReason,
  type ReportRequestDto,
} from '@mate/contracts';

/**
 * The most UTF-16 units a text may have as sent, before normalizing (control characters stripped,
 * trimmed): a cap on the work a hostile payload can cause. The limits of the contract are counted
 * after normalizing, in code points (an emoji counts once), by the service.
 */
export const RAW_TEXT_MAX_FACTOR = 4;

/**
 * An optional field: left out, it is absent; sent, it is validated, `null` included (IsOptional
 * would let `null` through to the service as if it were text: a 503).
 */
const IfSent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

/** `POST /api/safety/block/{userId}`. */
export class BlockBodyDto implements BlockRequestDto {
  @ApiPropertyOptional({ maxLength: BLOCK_REASON_MAX_LENGTH, description: 'Why (kept with the block; never shown to the other member)' })
  @IfSent()
  @MaxLength(BLOCK_REASON_MAX_LENGTH * RAW_TEXT_MAX_FACTOR, { message: SafetyMessages.blockReasonTooLong })
  @IsString({ message: 'reason must be text' })
  reason?: string;
}

/** `POST /api/safety/report/{userId}` (spec 000 §3 "Report (outgoing)"). */
export class ReportBodyDto implements ReportRequestDto {
  @ApiPropertyOptional({ enum: REPORT_REASONS, default: DEFAULT_REPORT_REASON })
  @IfSent()
  @IsIn(REPORT_REASONS, { message: SafetyMessages.invalidReason })
  @IsString({ message: SafetyMessages.invalidReason })
  reason?: ReportReason;

  @ApiPropertyOptional({ maxLength: REPORT_DETAILS_MAX_LENGTH, description: 'Free text for the moderators' })
  @IfSent()
  @MaxLength(REPORT_DETAILS_MAX_LENGTH * RAW_TEXT_MAX_FACTOR, { message: SafetyMessages.detailsTooLong })
  @IsString({ message: 'details must be text' })
  details?: string;
}
