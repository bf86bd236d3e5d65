import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUDIT_ACTIONS,
  PHOTO_CLASSES,
  REPORT_STATUSES,
  type AdminCommandResultDto,
  type AdminPhotoRefDto,
  type AdminReportDetailDto,
  type AdminReportDto,
  type AdminStatsDto,
  type AdminUserDetailDto,
  type AdminUserPart,
  type AdminUserSummaryDto,
  type AuditAction,
  type AuditLogEntryDto,
  type AuditLogPageDto,
  type AuditPersonDto,
  type AuditResourceType,
  type PendingPhotoDto,
  type PendingPhotosResponseDto,
  type PhotoModerationStatsDto,
  type PhotoScores,
  type ReportReason,
  type ReportSnapshotMessageDto,
  type ReportStatus,
  type Role,
} from '@mate/contracts';

const nullableText = { type: String, nullable: true };

export class AdminCommandResultResponseDto implements AdminCommandResultDto {
  @ApiProperty({ description: 'true (200): the owning service carried it out; false (202): accepted, it will be' })
  applied!: boolean;
  @ApiProperty({ format: 'uuid', description: 'The audit entry written with the command' })
  auditId!: string;
}

export class AdminReportResponseDto implements AdminReportDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status!: ReportStatus;
  @ApiProperty({ type: String }) reason!: ReportReason;
  @ApiProperty(nullableText) details!: string | null;
  @ApiProperty(nullableText) resolution!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ ...nullableText, format: 'date-time' }) resolvedAt!: string | null;
  @ApiProperty({ format: 'uuid' }) reporterId!: string;
  @ApiProperty(nullableText) reporterName!: string | null;
  @ApiProperty(nullableText) reporterEmail!: string | null;
  @ApiProperty({ format: 'uuid' }) reportedUserId!: string;
  @ApiProperty(nullableText) reportedUserName!: string | null;
  @ApiProperty(nullableText) reportedUserEmail!: string | null;
}

export class ReportSnapshotMessageResponseDto implements ReportSnapshotMessageDto {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid' }) senderId!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class ReportSnapshotResponseDto {
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: "The reported member's profile when reported" })
  reportedProfile!: Record<string, unknown> | null;
  @ApiProperty({ description: 'captured, pending or none' }) messagesStatus!: string;
  @ApiProperty({ type: [ReportSnapshotMessageResponseDto] }) messages!: ReportSnapshotMessageDto[];
  @ApiProperty({ ...nullableText, format: 'date-time' }) messagesCapturedAt!: string | null;
}

export class AdminReportDetailResponseDto extends AdminReportResponseDto implements AdminReportDetailDto {
  @ApiProperty({ type: ReportSnapshotResponseDto }) snapshot!: AdminReportDetailDto['snapshot'];
}

export class AdminPhotoRefResponseDto implements AdminPhotoRefDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
}

export class AdminUserDetailResponseDto implements AdminUserDetailDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty(nullableText) name!: string | null;
  @ApiProperty(nullableText) email!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) age!: number | null;
  @ApiProperty(nullableText) gender!: string | null;
  @ApiProperty(nullableText) location!: string | null;
  @ApiProperty({ enum: ['admin', 'member'], nullable: true }) role!: Role | null;
  @ApiProperty(nullableText) bio!: string | null;
  @ApiProperty({ ...nullableText, format: 'date-time' }) createdAt!: string | null;
  @ApiProperty({ ...nullableText, format: 'date-time', description: 'null: Never (or N/A when account is unavailable)' }) lastActive!: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) isVerified!: boolean | null;
  @ApiProperty({ type: Boolean, nullable: true }) isActive!: boolean | null;
  @ApiProperty({ type: Boolean, nullable: true }) isSuspended!: boolean | null;
  @ApiProperty({ ...nullableText, format: 'date-time' }) suspendedAt!: string | null;
  @ApiProperty(nullableText) suspensionReason!: string | null;
  @ApiProperty({ type: [AdminPhotoRefResponseDto] }) photos!: AdminPhotoRefDto[];
  @ApiProperty({ type: 'integer', nullable: true }) matchCount!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) reportsMade!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) reportsReceived!: number | null;
  @ApiProperty({ enum: ['account', 'profile', 'matching', 'safety'], isArray: true, description: 'Parts that did not answer (their fields are null: N/A)' })
  unavailable!: AdminUserPart[];
}

export class AdminUserSummaryResponseDto implements AdminUserSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty(nullableText) name!: string | null;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: ['admin', 'member'] }) role!: Role;
  @ApiProperty() isSuspended!: boolean;
  @ApiProperty() isVerified!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class PhotoScoresResponseDto {
  @ApiProperty() Drawing!: number;
  @ApiProperty() Hentai!: number;
  @ApiProperty() Neutral!: number;
  @ApiProperty() Porn!: number;
  @ApiProperty() Sexy!: number;
}

export class PendingPhotoResponseDto implements PendingPhotoDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty(nullableText) userName!: string | null;
  @ApiProperty(nullableText) userEmail!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) userAge!: number | null;
  @ApiProperty(nullableText) userGender!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: Number, nullable: true, description: `Porn + Hentai + Sexy of ${PHOTO_CLASSES.join(', ')}` }) riskScore!: number | null;
  @ApiProperty({ type: PhotoScoresResponseDto, nullable: true }) scores!: PhotoScores | null;
  @ApiProperty() hiddenFromMembers!: boolean;
}

export class PhotoModerationStatsResponseDto implements PhotoModerationStatsDto {
  @ApiProperty({ type: 'integer' }) totalPending!: number;
  @ApiProperty({ type: 'integer' }) approvedToday!: number;
  @ApiProperty({ type: 'integer' }) rejectedToday!: number;
}

export class PendingPhotosResponseBodyDto implements PendingPhotosResponseDto {
  @ApiProperty({ type: [PendingPhotoResponseDto] }) photos!: PendingPhotoDto[];
  @ApiProperty({ type: PhotoModerationStatsResponseDto }) stats!: PhotoModerationStatsDto;
}

class StatsUsersDto {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) active!: number;
  @ApiProperty({ type: 'integer' }) suspended!: number;
}
class StatsReasonCountDto {
  @ApiProperty() reason!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
}
class StatsReportsDto {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) pending!: number;
  @ApiProperty({ type: [StatsReasonCountDto] }) byReason!: { reason: string; count: number }[];
}
class StatsMatchesDto {
  @ApiProperty({
    type: 'integer',
    description:
      "The matches ever made (each match once, ended ones and deleted members' included): the analytics' totalMatches (README \"What a match is\")",
  })
  total!: number;
}
export class AdminStatsResponseDto implements AdminStatsDto {
  @ApiProperty({ type: StatsUsersDto }) users!: AdminStatsDto['users'];
  @ApiProperty({ type: StatsReportsDto }) reports!: AdminStatsDto['reports'];
  @ApiProperty({ type: StatsMatchesDto }) matches!: AdminStatsDto['matches'];
}

export class AuditPersonResponseDto implements AuditPersonDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty(nullableText) name!: string | null;
  @ApiProperty(nullableText) email!: string | null;
  @ApiProperty({ description: 'The account no longer exists' }) deleted!: boolean;
}

export class AuditLogEntryResponseDto implements AuditLogEntryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action!: AuditAction;
  @ApiProperty({ type: AuditPersonResponseDto }) admin!: AuditPersonDto;
  @ApiPropertyOptional({ type: AuditPersonResponseDto, nullable: true }) targetUser!: AuditPersonDto | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty(nullableText) ipAddress!: string | null;
  @ApiProperty(nullableText) userAgent!: string | null;
  @ApiProperty({ enum: ['user', 'report', 'photo'] }) targetResourceType!: AuditResourceType;
  @ApiProperty() targetResourceId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) details!: Record<string, unknown>;
}

export class AuditLogPageResponseDto implements AuditLogPageDto {
  @ApiProperty({ type: [AuditLogEntryResponseDto] }) logs!: AuditLogEntryDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) offset!: number;
}
