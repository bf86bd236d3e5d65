import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import {
  AuthErrorCode,
  AuthMessages,
  GdprErrorCode,
  GdprMessages,
  QueueName,
  ROLE_ADMIN,
} from '@mate/contracts';
import {
  badRequest,
  CLOCK,
  deleteKeys,
  eraseMemberTraces,
  forbidden,
  isClusterClient,
  LOGGER,
  memberTag,
  OutboxService,
  REDIS,
  scanKeys,
  SessionStore,
  unauthorized,
  type Clock,
  type RedisClient,
} from '@mate/server-kit';
import { AuthEnv } from '../auth.env';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AUTH_RATE_LIMITS } from '../accounts/rate-limits';
import { User } from '../accounts/user.entity';
import { MemberActivityRepository } from '../member-activity/member-activity.repository';
import { Session } from '../sessions/session.entity';
import { AuthToken } from '../tokens/auth-token.entity';

/** The rate-limit rules counted per member id (`…User`); `loginAccount`, `forgotEmail` and `loginAccountAddress` count per email. */
const RULES_BY_MEMBER = (Object.keys(AUTH_RATE_LIMITS) as (keyof typeof AUTH_RATE_LIMITS)[]).filter((r) => r.endsWith('User'));

/**
 * `POST /api/gdpr/delete-account` (issue 12, ADR 0016): the account and everything auth-service
 * keeps of the member go in one transaction that also puts `user.deleted` in the outbox, so every
 * other service hears of it exactly when the account is gone (a service that is down erases when
 * it returns: the event waits in its queue). Then the member's sessions end, which closes their
 * sockets on every gateway, and their Redis keys go.
 */
@Injectable()
export class AccountDeletionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly activity: MemberActivityRepository,
    private readonly outbox: OutboxService,
    private readonly sessionStore: SessionStore,
    private readonly env: AuthEnv,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async deleteAccount(userId: string, confirmEmail: string): Promise<void> {
    await this.erase(userId, (user) => {
      if (!user) throw unauthorized(AuthMessages.authRequired, AuthErrorCode.AccountDeleted);
      // The role goes first (admin:revoke): the other admins see one of theirs leave, and an
      // admin's erasure is never a side effect of a stolen admin session.
      if (user.role === ROLE_ADMIN) {
        throw forbidden(GdprMessages.adminCannotDeleteAccount, GdprErrorCode.AdminCannotDeleteAccount);
      }
      if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
        throw badRequest(GdprMessages.confirmEmailMismatch, GdprErrorCode.ConfirmEmailMismatch);
      }
    });
  }

  /**
   * An admin's delete command (issue 13, jobs.account-admin): the same erasure without the email
   * confirmation. False when there is no such account (already deleted: the command is done).
   */
  async deleteByAdmin(userId: string): Promise<boolean> {
    return this.erase(userId, () => undefined);
  }

  /** `check` sees the locked account (null when there is none) and may refuse by throwing. */
  private async erase(userId: string, check: (user: User | null) => void): Promise<boolean> {
    const emails = await this.dataSource.transaction(async (m) => {
      // Locked: a second deletion, an email change or a sign-in's session row waits for this one.
      const user = await m.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      check(user);
      if (!user) return null;
      // Every address the account had or asked for: the ones before an email change are named
      // only by the events that eraseMemberTraces is about to delete.
      const addresses = await this.addressesOf(m, user);
      // First of the erasure: it deletes the outbox rows that name the member (user.registered carries the email).
      await eraseMemberTraces(m, user.id);
      // Emails queued to the member's addresses (links, names) name them without naming the id.
      // Exact addresses only: a substring would also drop another member's email (an@x.co in dan@x.com).
      await this.accounts.deleteEmailsTo(m, addresses.map((a) => a.toLowerCase()), QueueName.Email);
      await m.delete(AuthToken, { userId: user.id });
      // The days the member used the app (issue 13; the foreign key would cascade, this says so).
      await this.activity.deleteDaysOf(m, user.id);
      await m.delete(Session, { userId: user.id });
      await m.delete(User, { id: user.id });
      await this.outbox.publish(m, 'user.deleted', { userId: user.id, deletedAt: this.clock.now().toISOString() });
      // Ended before the commit: if Redis fails, nothing is deleted (the member tries again); if the
      // commit fails, the member is merely signed out. A sign-in meanwhile waits on the row lock.
      await this.sessionStore.revokeAllForUser(user.id);
      return addresses;
    });
    if (!emails) return false;
    this.logger.info({ userId }, 'account deleted');
    try {
      // Again after the commit, for a session whose Redis entry appeared in between (SessionsService.start).
      await this.sessionStore.revokeAllForUser(userId);
      await this.forgetInRedis(userId, emails);
    } catch (e) {
      // The account is gone and its sessions ended before the commit: the member is not told of a
      // failure. What stays (counters that expire within the hour, known addresses) shows in
      // `npm run gdpr -- verify`.
      this.logger.error({ userId, error: e instanceof Error ? { name: e.name, message: e.message } : String(e) }, 'account deleted; its Redis keys were not all removed');
    }
    return true;
  }

  private async addressesOf(m: EntityManager, user: User): Promise<string[]> {
    const requested = await m.find(AuthToken, { where: { userId: user.id, kind: 'email_change' }, select: { id: true, newEmail: true } });
    const published = await this.accounts.addressesInEvents(m, user.id);
    const all = [user.email, ...requested.map((t) => t.newEmail), ...published];
    return [...new Set(all.filter((e): e is string => !!e).map((e) => e.toLowerCase()))];
  }

  /**
   * The member's rate-limit counters and known addresses: keys naming their id or email. On a
   * cluster the member's counters carry their hash tag (MemberLimits), the keys lie in several
   * slots (one DEL per slot) and the scan asks every master (deleteKeys, scanKeys).
   */
  private async forgetInRedis(userId: string, emails: string[]): Promise<void> {
    const prefix = this.env.KEY_PREFIX;
    const member = memberTag(userId.toLowerCase(), isClusterClient(this.redis));
    const keys = [
      `${prefix}:auth:known-addresses:${userId}`,
      // Emptied by revokeAllForUser; gone for good even if a stale member was left in it.
      this.sessionStore.userSessionsKey(userId),
      ...RULES_BY_MEMBER.map((rule) => `${prefix}:rl:${rule}:${member}`),
      ...emails.flatMap((email) => [`${prefix}:rl:loginAccount:${email}`, `${prefix}:rl:forgotEmail:${email}`]),
    ];
    for (const email of emails) keys.push(...(await scanKeys(this.redis, `${escapeGlob(`${prefix}:rl:loginAccountAddress:${email}|`)}*`)));
    await deleteKeys(this.redis, keys);
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}
