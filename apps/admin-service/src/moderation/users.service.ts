import { Injectable } from '@nestjs/common';
import {
  AdminErrorCode,
  AuthErrorCode,
  QueueName,
  ROLE_ADMIN,
  type AdminUserDetailDto,
  type AdminUserPart,
  type AdminUserSummaryDto,
  type AdminAccountPart,
} from '@mate/contracts';
import { badRequest, conflict, forbidden, notFound, serviceUnavailable } from '@mate/server-kit';
import { AuditedCommands, type AdminActor, type AuditEntry, type CommandOutcome } from './audited-command';
import { OwnersClient, type Part } from './owners.client';

export const USER_NOT_FOUND = 'User not found';
export const ALREADY_SUSPENDED = 'This user is already suspended';
export const NOT_SUSPENDED = 'This user is not suspended';
export const NOT_YOURSELF = 'You cannot do this to your own account';
export const ADMIN_NOT_A_TARGET =
  'Admin accounts cannot be suspended, unsuspended or deleted through the admin API; revoke the admin role first (npm run admin:revoke -- <email>)';
const ACCOUNTS_UNAVAILABLE = 'Accounts are unavailable right now (auth-service did not answer); try again';

/** A member as admins see them (composed from four owners) and the account commands (auth-service carries them out). */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly owners: OwnersClient,
    private readonly commands: AuditedCommands,
  ) {}

  /**
   * Every part asked in parallel, each with its timeout: a part that did not answer leaves its
   * fields null and is named in `unavailable`. 404 only when auth says the account does not exist.
   * A member without a profile yet has null profile fields (not unavailable).
   */
  async detail(userId: string): Promise<AdminUserDetailDto> {
    const [account, profile, matching, safety] = await Promise.all([
      this.owners.account(userId),
      this.owners.profile(userId),
      this.owners.matchingMember(userId),
      this.owners.safetyMember(userId),
    ]);
    if (!account.ok && account.notFound) throw notFound(USER_NOT_FOUND, AuthErrorCode.AccountNotFound);
    const unavailable: AdminUserPart[] = [];
    const value = <T>(part: Part<T>, name: AdminUserPart): T | null => {
      if (part.ok) return part.value;
      if (!part.notFound || name === 'account') unavailable.push(name);
      return null;
    };
    const a = value(account, 'account');
    const p = value(profile, 'profile');
    const m = value(matching, 'matching');
    const s = value(safety, 'safety');
    return {
      id: userId,
      name: p?.name ?? a?.name ?? null,
      email: a?.email ?? null,
      age: p?.age ?? null,
      gender: p?.gender ?? null,
      location: p?.location ?? null,
      role: a?.role ?? null,
      bio: p?.bio ?? null,
      createdAt: a?.createdAt ?? null,
      lastActive: a?.lastActive ?? null,
      isVerified: a?.isVerified ?? null,
      isActive: a?.isActive ?? null,
      isSuspended: a?.isSuspended ?? null,
      suspendedAt: a?.suspendedAt ?? null,
      suspensionReason: a?.suspensionReason ?? null,
      photos: p?.photos ?? [],
      matchCount: m ? m.matchCount : null,
      reportsMade: s ? s.reportsMade : null,
      reportsReceived: s ? s.reportsReceived : null,
      unavailable,
    };
  }

  async search(q: string, limit: number): Promise<AdminUserSummaryDto[]> {
    const hits = await this.owners.searchAccounts(q, limit);
    if (!hits.ok) throw serviceUnavailable(undefined, ACCOUNTS_UNAVAILABLE);
    return hits.value.slice(0, limit);
  }

  async suspend(actor: AdminActor, userId: string, reason: string): Promise<CommandOutcome> {
    const entry = { action: 'suspend_user', targetUserId: userId, resourceType: 'user', resourceId: userId, details: { reason } } as const;
    const account = await this.targetAccount(actor, entry);
    if (account.isSuspended) throw conflict(ALREADY_SUSPENDED, AdminErrorCode.AlreadySuspended);
    return this.commands.run(actor, { ...entry, queue: QueueName.AccountAdmin, job: { kind: 'suspend', userId, reason, adminId: actor.adminId } });
  }

  async unsuspend(actor: AdminActor, userId: string): Promise<CommandOutcome> {
    const entry = { action: 'unsuspend_user', targetUserId: userId, resourceType: 'user', resourceId: userId, details: {} } as const;
    const account = await this.targetAccount(actor, entry);
    if (!account.isSuspended) throw conflict(NOT_SUSPENDED, AdminErrorCode.NotSuspended);
    return this.commands.run(actor, { ...entry, queue: QueueName.AccountAdmin, job: { kind: 'unsuspend', userId, adminId: actor.adminId } });
  }

  async delete(actor: AdminActor, userId: string): Promise<CommandOutcome> {
    const entry = { action: 'delete_user', targetUserId: userId, resourceType: 'user', resourceId: userId, details: {} } as const;
    await this.targetAccount(actor, entry);
    return this.commands.run(actor, { ...entry, queue: QueueName.AccountAdmin, job: { kind: 'delete', userId, adminId: actor.adminId } });
  }

  /**
   * The account as auth has it now (404 when none; 503 when auth did not answer); never the admin's
   * own, nor another admin's: two admins could otherwise lock each other out or one erase the
   * others (issue 24). That attempt is audited, then refused with 403.
   */
  private async targetAccount(actor: AdminActor, entry: AuditEntry & { targetUserId: string }): Promise<AdminAccountPart> {
    if (entry.targetUserId === actor.adminId) throw badRequest(NOT_YOURSELF, AdminErrorCode.OwnAccount);
    const account = await this.owners.account(entry.targetUserId);
    if (!account.ok) {
      throw account.notFound
        ? notFound(USER_NOT_FOUND, AuthErrorCode.AccountNotFound)
        : serviceUnavailable(undefined, ACCOUNTS_UNAVAILABLE);
    }
    if (account.value.role === ROLE_ADMIN) {
      await this.commands.refuse(actor, entry, ADMIN_NOT_A_TARGET);
      throw forbidden(ADMIN_NOT_A_TARGET, AdminErrorCode.AdminNotATarget);
    }
    return account.value;
  }
}
