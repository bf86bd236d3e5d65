import { plainToInstance } from 'class-transformer';
import { IsIn, IsString, IsUUID, MinLength, ValidateIf, validateSync } from 'class-validator';
import type { AccountAdminCommand } from '@mate/contracts';

const KINDS: AccountAdminCommand['kind'][] = ['suspend', 'unsuspend', 'delete'];

/**
 * A command as it arrives on `jobs.account-admin`. admin-service checks the admin's input; this
 * checks that the job is one auth-service can carry out at all (a job written by another version,
 * or by hand, is refused rather than half-done).
 */
class AccountAdminCommandDto {
  @IsIn(KINDS, { message: `kind must be one of ${KINDS.join(', ')}` })
  kind!: AccountAdminCommand['kind'];

  @IsUUID('all', { message: 'userId must be a UUID' })
  userId!: string;

  @IsUUID('all', { message: 'adminId must be a UUID' })
  adminId!: string;

  /** A suspension must say why (the other commands carry none; one given is not used). */
  @ValidateIf((c: AccountAdminCommandDto) => c.kind === 'suspend')
  @MinLength(1, { message: 'reason must not be empty' })
  @IsString({ message: 'reason must be a string' })
  reason?: string;
}

/** The command, with its ids lower-cased, or the first thing wrong with it. */
export function readAccountAdminCommand(data: unknown): { command: AccountAdminCommand } | { error: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { error: 'the job carries no command' };
  const dto = plainToInstance(AccountAdminCommandDto, data);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  if (errors.length) {
    const [first] = errors;
    const message = first.constraints?.whitelistValidation
      ? `unknown field: ${first.property}`
      : Object.values(first.constraints ?? {})[0];
    return { error: message ?? `invalid ${first.property}` };
  }
  const userId = dto.userId.toLowerCase();
  const adminId = dto.adminId.toLowerCase();
  if (dto.kind === 'suspend')
    return { command: { kind: 'suspend', userId, adminId, reason: dto.reason as string } };
  return { command: { kind: dto.kind, userId, adminId } };
}
