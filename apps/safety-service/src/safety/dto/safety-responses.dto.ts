import { ApiProperty } from '@nestjs/swagger';
import {
  REPORT_REASONS,
  type BlockedUserDto,
  type ReportReason,
  type ReportResultDto,
  type UnblockResultDto,
  type UnmatchResultDto,
} from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class BlockedUserResponseDto implements BlockedUserDto {
  @ApiProperty({ format: 'uuid', description: "The block's id" }) id!: string;
  @ApiProperty({ format: 'uuid' }) blockedId!: string;
  @ApiProperty({ type: String, nullable: true, description: "Null when unknown (the app shows 'Unknown User')" })
  name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Primary photo URL' }) photo!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class UnblockResultResponseDto implements UnblockResultDto {
  @ApiProperty({ description: 'False when there was no block to lift' }) unblocked!: boolean;
}

export class ReportResultResponseDto implements ReportResultDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) reportedId!: string;
  @ApiProperty({ enum: REPORT_REASONS }) reason!: ReportReason;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class UnmatchResultResponseDto implements UnmatchResultDto {
  @ApiProperty({ enum: [true] }) unmatched!: true;
  @ApiProperty({ format: 'uuid', description: 'The match that ended' }) matchId!: string;
}
