import { plainToInstance } from 'class-transformer';
import { IsIn, IsString, IsUUID, MaxLength, ValidateIf, validateSync } from 'class-validator';
import {
  REPORT_RESOLUTION_MAX_LENGTH,
  REPORT_RESOLUTION_STATUSES,
  type ReportAdminCommand,
} from '@mate/contracts';

/**
 * A command as it arrives on `jobs.report-admin`. admin-service checks the admin's input; this
 * checks that the job is one safety-service can carry out at all (a job written by another
 * version, or by hand, is refused rather than half-done).
 */
class ReportAdminCommandDto {
  @IsIn(['resolve'], { message: 'kind must be resolve' })
  kind!: 'resolve';

  @IsUUID('all', { message: 'reportId must be a UUID' })
  reportId!: string;

  @IsIn(REPORT_RESOLUTION_STATUSES, {
    message: `status must be one of ${REPORT_RESOLUTION_STATUSES.join(', ')}`,
  })
  status!: ReportAdminCommand['status'];

  @ValidateIf((_: object, value: unknown) => value !== null && value !== undefined)
  @MaxLength(REPORT_RESOLUTION_MAX_LENGTH, {
    message: `resolution must be at most ${REPORT_RESOLUTION_MAX_LENGTH} characters`,
  })
  @IsString({ message: 'resolution must be a string or null' })
  resolution?: string | null;

  @IsUUID('all', { message: 'adminId must be a UUID' })
  adminId!: string;
}

/** The command, ids lower-cased and an empty resolution as none, or the first thing wrong with it. */
export function readReportAdminCommand(data: unknown): { command: ReportAdminCommand } | { error: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { error: 'the job carries no command' };
  const dto = plainToInstance(ReportAdminCommandDto, data);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  if (errors.length) {
    const [first] = errors;
    const message = first.constraints?.whitelistValidation
      ? `unknown field: ${first.property}`
      : Object.values(first.constraints ?? {})[0];
    return { error: message ?? `invalid ${first.property}` };
  }
  const resolution =
    typeof dto.resolution === 'string' && dto.resolution.trim() !== '' ? dto.resolution.trim() : null;
  return {
    command: {
      kind: 'resolve',
      reportId: dto.reportId.toLowerCase(),
      status: dto.status,
      resolution,
      adminId: dto.adminId.toLowerCase(),
    },
  };
}
