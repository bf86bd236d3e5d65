import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  ADMIN_REPORTS_MAX_LIMIT,
  ADMIN_REPORTS_PAGE_SIZE,
  REPORT_REASONS,
  REPORT_STATUSES,
  type ReportReason,
  type ReportStatus,
} from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

/** Deeper than any moderator pages; bounds the work one call can ask of the database. */
export const ADMIN_REPORTS_MAX_OFFSET = 100_000;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ADMIN_REPORTS_MAX_LIMIT}`;
const OFFSET_MESSAGE = `offset must be a whole number from 0 to ${ADMIN_REPORTS_MAX_OFFSET}`;

/** `GET /internal/admin/reports?status&reason&limit&offset` (admin-service's report list). */
export class AdminReportsQueryDto {
  @IsOptional()
  @IsIn(REPORT_STATUSES, { message: `status must be one of: ${REPORT_STATUSES.join(', ')}` })
  status?: ReportStatus;

  @IsOptional()
  @IsIn(REPORT_REASONS, { message: `reason must be one of: ${REPORT_REASONS.join(', ')}` })
  reason?: ReportReason;

  @IsOptional()
  @QueryInteger()
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(ADMIN_REPORTS_MAX_LIMIT, { message: LIMIT_MESSAGE })
  @IsInt({ message: LIMIT_MESSAGE })
  limit: number = ADMIN_REPORTS_PAGE_SIZE;

  @IsOptional()
  @QueryInteger()
  @Min(0, { message: OFFSET_MESSAGE })
  @Max(ADMIN_REPORTS_MAX_OFFSET, { message: OFFSET_MESSAGE })
  @IsInt({ message: OFFSET_MESSAGE })
  offset = 0;
}
