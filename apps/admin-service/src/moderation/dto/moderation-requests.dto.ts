import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNotEmpty, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  ADMIN_REPORTS_MAX_LIMIT,
  ADMIN_REPORTS_PAGE_SIZE,
  ADMIN_USER_SEARCH_DEFAULT_LIMIT,
  ADMIN_USER_SEARCH_MAX_LIMIT,
  ADMIN_USER_SEARCH_QUERY_MAX_LENGTH,
  AUDIT_ACTIONS,
  AUDIT_MAX_LIMIT,
  AUDIT_PAGE_SIZE,
  AUDIT_SEARCH_MAX_LENGTH,
  PHOTO_REJECTION_REASON_MAX_LENGTH,
  REPORT_RESOLUTION_MAX_LENGTH,
  REPORT_REASONS,
  REPORT_RESOLUTION_STATUSES,
  REPORT_STATUSES,
  SUSPENSION_REASON_MAX_LENGTH,
  type AuditAction,
  type RejectPhotoRequestDto,
  type ReportReason,
  type ReportResolutionStatus,
  type ReportStatus,
  type SuspendUserRequestDto,
  type UpdateReportRequestDto,
} from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

/** Paging offsets stop here (a deeper page is not a screen anyone reads). */
export const MAX_OFFSET = 1_000_000;
/** safety-service pages its reports up to this offset. */
export const REPORTS_MAX_OFFSET = 100_000;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Sent fields are validated, null included; left out, they are absent. */
const IfSent = () => ValidateIf((_: object, value: unknown) => value !== undefined);
const wholeNumber = (name: string, min: number, max: number) => `${name} must be a whole number from ${min} to ${max}`;

/** `GET /admin/reports?status&limit&reason&offset` (status omitted: every status). */
export class ReportsQueryDto {
  @ApiPropertyOptional({ enum: REPORT_STATUSES, description: 'Omitted: all' })
  @IfSent()
  @IsIn(REPORT_STATUSES, { message: `status must be one of ${REPORT_STATUSES.join(', ')}` })
  status?: ReportStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ADMIN_REPORTS_MAX_LIMIT, default: ADMIN_REPORTS_PAGE_SIZE })
  @IfSent()
  @QueryInteger()
  @Min(1, { message: wholeNumber('limit', 1, ADMIN_REPORTS_MAX_LIMIT) })
  @Max(ADMIN_REPORTS_MAX_LIMIT, { message: wholeNumber('limit', 1, ADMIN_REPORTS_MAX_LIMIT) })
  @IsInt({ message: wholeNumber('limit', 1, ADMIN_REPORTS_MAX_LIMIT) })
  limit: number = ADMIN_REPORTS_PAGE_SIZE;

  @ApiPropertyOptional({ enum: REPORT_REASONS })
  @IfSent()
  @IsIn(REPORT_REASONS, { message: `reason must be one of ${REPORT_REASONS.join(', ')}` })
  reason?: ReportReason;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: REPORTS_MAX_OFFSET, default: 0 })
  @IfSent()
  @QueryInteger()
  @Min(0, { message: wholeNumber('offset', 0, REPORTS_MAX_OFFSET) })
  @Max(REPORTS_MAX_OFFSET, { message: wholeNumber('offset', 0, REPORTS_MAX_OFFSET) })
  @IsInt({ message: wholeNumber('offset', 0, REPORTS_MAX_OFFSET) })
  offset = 0;
}

/** `PATCH /admin/reports/{id}`: only a pending report moves, to reviewed or dismissed. */
export class UpdateReportBodyDto implements UpdateReportRequestDto {
  @ApiProperty({ enum: REPORT_RESOLUTION_STATUSES })
  @IsIn(REPORT_RESOLUTION_STATUSES, { message: 'status must be reviewed or dismissed' })
  status!: ReportResolutionStatus;

  @ApiPropertyOptional({ maxLength: REPORT_RESOLUTION_MAX_LENGTH, nullable: true, description: 'Optional note' })
  @ValidateIf((_: object, value: unknown) => value !== undefined && value !== null)
  @MaxLength(REPORT_RESOLUTION_MAX_LENGTH, { message: `resolution must be at most ${REPORT_RESOLUTION_MAX_LENGTH} characters` })
  @IsString({ message: 'resolution must be text' })
  @Transform(trim)
  resolution?: string;
}

/** `POST /admin/users/{id}/suspend`. */
export class SuspendUserBodyDto implements SuspendUserRequestDto {
  @ApiProperty({ minLength: 1, maxLength: SUSPENSION_REASON_MAX_LENGTH })
  @MaxLength(SUSPENSION_REASON_MAX_LENGTH, { message: `reason must be at most ${SUSPENSION_REASON_MAX_LENGTH} characters` })
  @IsNotEmpty({ message: 'Please provide a suspension reason' })
  @IsString({ message: 'Please provide a suspension reason' })
  @Transform(trim)
  reason!: string;
}

/** `POST /admin/photos/{id}/reject`. */
export class RejectPhotoBodyDto implements RejectPhotoRequestDto {
  @ApiProperty({ minLength: 1, maxLength: PHOTO_REJECTION_REASON_MAX_LENGTH })
  @MaxLength(PHOTO_REJECTION_REASON_MAX_LENGTH, { message: `reason must be at most ${PHOTO_REJECTION_REASON_MAX_LENGTH} characters` })
  @IsNotEmpty({ message: 'Please provide a rejection reason' })
  @IsString({ message: 'Please provide a rejection reason' })
  @Transform(trim)
  reason!: string;
}

/** `GET /admin/users/search?q&limit`: name or email, case-insensitive. */
export class UserSearchQueryDto {
  @ApiProperty({ minLength: 1, maxLength: ADMIN_USER_SEARCH_QUERY_MAX_LENGTH })
  @MaxLength(ADMIN_USER_SEARCH_QUERY_MAX_LENGTH, { message: `q must be at most ${ADMIN_USER_SEARCH_QUERY_MAX_LENGTH} characters` })
  @IsNotEmpty({ message: 'q is required' })
  @IsString({ message: 'q is required' })
  @Transform(trim)
  q!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ADMIN_USER_SEARCH_MAX_LIMIT, default: ADMIN_USER_SEARCH_DEFAULT_LIMIT })
  @IfSent()
  @QueryInteger()
  @Min(1, { message: wholeNumber('limit', 1, ADMIN_USER_SEARCH_MAX_LIMIT) })
  @Max(ADMIN_USER_SEARCH_MAX_LIMIT, { message: wholeNumber('limit', 1, ADMIN_USER_SEARCH_MAX_LIMIT) })
  @IsInt({ message: wholeNumber('limit', 1, ADMIN_USER_SEARCH_MAX_LIMIT) })
  limit: number = ADMIN_USER_SEARCH_DEFAULT_LIMIT;
}

const DATE_MESSAGE = (name: string) => `${name} must be a date (YYYY-MM-DD or ISO 8601)`;

/** `GET /api/admin/audit?action&search&startDate&endDate&limit&offset`. */
export class AuditQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IfSent()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: AuditAction;

  @ApiPropertyOptional({ maxLength: AUDIT_SEARCH_MAX_LENGTH, description: "Admin's or target's name or email, resource id, or details text" })
  @IfSent()
  @MaxLength(AUDIT_SEARCH_MAX_LENGTH, { message: `search must be at most ${AUDIT_SEARCH_MAX_LENGTH} characters` })
  @IsString({ message: 'search must be text' })
  @Transform(trim)
  search?: string;

  @ApiPropertyOptional({ description: 'From this moment (a date: its start, UTC)', example: '2026-01-31' })
  @IfSent()
  @IsISO8601({ strict: true }, { message: DATE_MESSAGE('startDate') })
  @IsString({ message: DATE_MESSAGE('startDate') })
  startDate?: string;

  @ApiPropertyOptional({ description: 'Up to this moment (a date: the whole day included, UTC)', example: '2026-01-31' })
  @IfSent()
  @IsISO8601({ strict: true }, { message: DATE_MESSAGE('endDate') })
  @IsString({ message: DATE_MESSAGE('endDate') })
  endDate?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: AUDIT_MAX_LIMIT, default: AUDIT_PAGE_SIZE })
  @IfSent()
  @QueryInteger()
  @Min(1, { message: wholeNumber('limit', 1, AUDIT_MAX_LIMIT) })
  @Max(AUDIT_MAX_LIMIT, { message: wholeNumber('limit', 1, AUDIT_MAX_LIMIT) })
  @IsInt({ message: wholeNumber('limit', 1, AUDIT_MAX_LIMIT) })
  limit: number = AUDIT_PAGE_SIZE;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0 })
  @IfSent()
  @QueryInteger()
  @Min(0, { message: wholeNumber('offset', 0, MAX_OFFSET) })
  @Max(MAX_OFFSET, { message: wholeNumber('offset', 0, MAX_OFFSET) })
  @IsInt({ message: wholeNumber('offset', 0, MAX_OFFSET) })
  offset = 0;
}
