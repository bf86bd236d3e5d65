import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import * as argon2 from 'argon2';
import {
  AuthErrorCode,
  AuthMessages,
  QueueName,
  ROLE_ADMIN,
  ROLE_MEMBER,
  WEB_ROUTES,
  type AuthPrincipal,
  type AuthResponse,
  type Role,
  type UserDto,
} from '@mate/contracts';
import {
  AppException,
  badRequest,
  CLOCK,
  conflict,
  forbidden,
  notFound,
  OutboxService,
  rateLimitAddress,
  RateLimits,
  SessionStore,
  unauthorized,
  type Clock,
} from '@mate/server-kit';
import { AuthEnv, adminEmails } from '../auth.env';
import { TokensService } from '../tokens/tokens.service';
import { SessionsService, type DeviceContext } from '../sessions/sessions.service';
import { AccountsRepository } from './accounts.repository';
import { User } from './user.entity';
import { toUserDto } from './user.mapper';
import { AUTH_RATE_LIMITER, type AuthRateLimit } from './rate-limits';
import { KnownAddresses } from './known-addresses';
import type { LoginDto, RegisterDto, RequestEmailChangeDto, ResetPasswordDto } from './dto/auth.dto';

/** argon2id with OWASP's minimum memory cost; about 50 ms a hash on this hardware. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash to verify against when the account does not exist, so timing does not reveal it. Made
 * once per process, on the first sign-in for an unknown email, not at start-up or per instance.
 */
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= argon2.hash('not-a-real-password', ARGON2_OPTIONS));

/**
 * The key every per-address rule counts a client under: the address, an IPv6 one by its /64 (a
 * client holds the whole /64 and may pick a fresh address in it for every request).
 */
const addressKey = (ip: string | null | undefined) => rateLimitAddress(ip ?? 'unknown');

function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === '23505' || (e as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

/**
 * Accounts: registration, sign-in, email verification, password reset and email change. Every
 * change that others must hear of (events, emails) goes through the outbox in the same transaction.
 */
@Injectable()
export class AccountsService {
  private readonly admins: Set<string>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokensService,
    private readonly sessions: SessionsService,
    private readonly sessionStore: SessionStore,
    private readonly outbox: OutboxService,
    private readonly env: AuthEnv,
    @Inject(AUTH_RATE_LIMITER) private readonly limits: RateLimits<AuthRateLimit>,
    private readonly knownAddresses: KnownAddresses,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.admins = adminEmails(env);
  }

  private link(route: string, token: string) {
    return `${this.env.WEB_URL.replace(/\/$/, '')}${route}?token=${token}`;
  }

  /**
   * ADMIN_EMAILS make an account admin only once its address is verified: before that, whoever
   * registered the address first would be admin (issue 7, item 10).
   */
  private roleFor(email: string, verified: boolean, current: Role): Role {
    return verified && this.admins.has(email.toLowerCase()) ? ROLE_ADMIN : current;
  }

  /**
   * Grants the ADMIN_EMAILS role to a just-verified address on the row; returns the account's role,
   * which the caller then sets on every live session (a session may still say 'admin' from before
   * the DemoteUnverifiedAdmins migration, and must not keep it once verified).
   */
  private async grantRoleOnVerified(m: EntityManager, user: User, email: string): Promise<Role> {
    const role = this.roleFor(email, true, user.role);
    if (role !== user.role) await m.update(User, { id: user.id }, { role });
    return role;
  }

  async register(dto: RegisterDto, device: DeviceContext): Promise<AuthResponse> {
    const address = addressKey(device.ipAddress);
    await this.limits.consume('registerIp', address);
    const passwordHash = await argon2.hash(dto.password, ARGON2_OPTIONS);
    let user: User;
    try {
      user = await this.dataSource.transaction(async (m) => {
        const created = m.create(User, {
          email: dto.email,
          passwordHash,
          name: dto.name ? dto.name : null,
          age: dto.age ?? null,
          role: ROLE_MEMBER,
        });
        await m.save(created);
        const token = await this.tokens.issue(m, created.id, 'verify_email');
        await this.outbox.publish(m, 'user.registered', {
          userId: created.id,
          email: created.email,
          name: created.name,
          age: created.age,
          registeredAt: created.createdAt.toISOString(),
        });
        // Anyone can type any address here: the email carries no text they chose (issue 7, item 6).
        await this.outbox.enqueueJob(m, QueueName.Email, {
          template: 'verify-email',
          to: created.email,
          userId: created.id,
          name: null,
          link: this.link(WEB_ROUTES.verifyEmail, token),
        });
        return created;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(AuthMessages.emailTaken, AuthErrorCode.EmailTaken);
      throw e;
    }
    // Signed in with the password just chosen: the address is the owner's.
    await this.knownAddresses.remember(user.id, address);
    const token = await this.sessions.start(user.id, user.role, false, device);
    return { token, user: toUserDto(user) };
  }

  async login(dto: LoginDto, device: DeviceContext): Promise<AuthResponse> {
    const address = addressKey(device.ipAddress);
    // Failures lock an account per address (a stranger elsewhere cannot lock the owner out), and
    // across all addresses at the slower global brake, which addresses the account has signed in
    // from before pass (issue 7, item 4; rate-limits.ts, ADR 0010).
    const accountAtAddress = `${dto.email}|${address}`;
    await this.limits.consume('loginIp', address);
    await this.limits.check('loginAccountAddress', accountAtAddress);
    const brake = await this.brakeOn(dto.email);
    const user = await this.accounts.findByEmail(this.dataSource.manager, dto.email);
    // Refused before the password is looked at, the same whether it is right, wrong or the
    // account does not exist: the refusal tells a guesser nothing.
    if (brake && !(user && (await this.knownAddresses.has(user.id, address)))) throw brake;
    const ok = user
      ? await argon2.verify(user.passwordHash, dto.password)
      : (await argon2.verify(await dummyPasswordHash(), dto.password), false);
    if (!user || !ok) {
      await this.limits.countFailure('loginAccountAddress', accountAtAddress);
      await this.limits.countFailure('loginAccount', dto.email);
      throw unauthorized(AuthMessages.invalidCredentials, AuthErrorCode.InvalidCredentials);
    }
    if (user.suspendedAt) throw forbidden(AuthMessages.accountSuspended, AuthErrorCode.AccountSuspended);
    await this.limits.reset('loginAccountAddress', accountAtAddress);
    await this.knownAddresses.remember(user.id, address);
    const role = this.roleFor(user.email, user.emailVerifiedAt !== null, user.role);
    if (role !== user.role) {
      user.role = role;
      await this.users.update({ id: user.id }, { role });
    }
    const token = await this.sessions.start(user.id, user.role, user.emailVerifiedAt !== null, device);
    return { token, user: toUserDto(user) };
  }

  /** The global brake's 429 (with its Retry-After) when it is on for this email, else null. */
  private async brakeOn(email: string): Promise<AppException | null> {
    try {
      await this.limits.check('loginAccount', email);
      return null;
    } catch (e) {
      if (e instanceof AppException && e.getStatus() === HttpStatus.TOO_MANY_REQUESTS) return e;
      throw e;
    }
  }

  async logout(principal: AuthPrincipal): Promise<void> {
    await this.sessions.end(principal.userId, principal.sessionId);
  }

  /**
   * Also brings the sessions' `verified` flag and role in line with the account: a session created
   * before sessions carried the flag counts as unverified, one of an admin demoted by a migration
   * still says 'admin', and this is the web app's start-up call.
   */
  async me(principal: AuthPrincipal): Promise<UserDto> {
    const user = await this.users.findOne({ where: { id: principal.userId } });
    if (!user) throw unauthorized(AuthMessages.authRequired, AuthErrorCode.AccountDeleted);
    const verified = user.emailVerifiedAt !== null;
    if (principal.verified !== verified) await this.sessionStore.setVerified(user.id, verified);
    if (principal.role !== user.role) await this.sessionStore.setRole(user.id, user.role);
    return toUserDto(user);
  }

  async forgotPassword(email: string, ip: string | null): Promise<void> {
    await this.limits.consume('forgotIp', addressKey(ip));
    await this.limits.consume('forgotEmail', email);
    await this.dataSource.transaction(async (m) => {
      const user = await this.accounts.findByEmail(m, email);
      if (!user || user.suspendedAt) return;
      const token = await this.tokens.issue(m, user.id, 'reset_password');
      // The name only once the address is proven: an unverified account's address may be anyone's.
      await this.outbox.enqueueJob(m, QueueName.Email, {
        template: 'reset-password',
        to: user.email,
        userId: user.id,
        name: user.emailVerifiedAt ? user.name : null,
        link: this.link(WEB_ROUTES.resetPassword, token),
      });
    });
  }

  async verifyResetToken(token: string, ip: string | null): Promise<void> {
    await this.limits.consume('tokenIp', addressKey(ip));
    const row = await this.tokens.find(this.dataSource.manager, token, 'reset_password');
    if (!row) throw badRequest(AuthMessages.resetLinkInvalid, AuthErrorCode.InvalidToken);
  }

  async resetPassword(dto: ResetPasswordDto, ip: string | null): Promise<void> {
    await this.limits.consume('tokenIp', addressKey(ip));
    const passwordHash = await argon2.hash(dto.newPassword, ARGON2_OPTIONS);
    const userId = await this.dataSource.transaction(async (m) => {
      const row = await this.tokens.find(m, dto.token, 'reset_password', true);
      if (!row) throw badRequest(AuthMessages.resetLinkInvalid, AuthErrorCode.InvalidToken);
      await this.tokens.spend(m, row);
      await m.update(User, { id: row.userId }, { passwordHash });
      // Whoever knew the old password may have asked to move the account to their own address.
      await this.tokens.retireEmailChangeTokens(m, row.userId);
      return row.userId;
    });
    // Whoever knew the old password is signed out everywhere.
    await this.sessions.endAll(userId);
    // The owner proved the address: guesses at the old password no longer hold the account.
    await this.limits.reset('loginAccount', (await this.users.findOneOrFail({ where: { id: userId } })).email);
  }

  /** The member's resend limit was counted by the guard (MemberRequestLimits). */
  async resendVerification(principal: AuthPrincipal): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const user = await m.findOne(User, { where: { id: principal.userId } });
      if (!user) throw notFound('Account not found', AuthErrorCode.AccountNotFound);
      if (user.emailVerifiedAt) throw badRequest(AuthMessages.alreadyVerified, AuthErrorCode.AlreadyVerified);
      const token = await this.tokens.issue(m, user.id, 'verify_email');
      await this.outbox.enqueueJob(m, QueueName.Email, {
        template: 'verify-email',
        to: user.email,
        userId: user.id,
        name: null,
        link: this.link(WEB_ROUTES.verifyEmail, token),
      });
    });
  }

  async verifyEmail(token: string, ip: string | null): Promise<void> {
    await this.limits.consume('tokenIp', addressKey(ip));
    const verified = await this.dataSource.transaction(async (m) => {
      const row = await this.tokens.find(m, token, 'verify_email', true);
      if (!row) throw badRequest(AuthMessages.verificationLinkInvalid, AuthErrorCode.InvalidToken);
      await this.tokens.spend(m, row);
      // Locked: the event below carries the user's state as of this transaction (ADR 0004).
      const user = await m.findOneOrFail(User, { where: { id: row.userId }, lock: { mode: 'pessimistic_write' } });
      if (user.emailVerifiedAt) return { userId: user.id, role: user.role };
      const verifiedAt = this.clock.now();
      await m.update(User, { id: user.id }, { emailVerifiedAt: verifiedAt });
      const role = await this.grantRoleOnVerified(m, user, user.email);
      // Name and age again: a consumer that skips an older user.registered still gets them.
      await this.outbox.publish(m, 'user.verified', {
        userId: user.id,
        verifiedAt: verifiedAt.toISOString(),
        name: user.name,
        age: user.age,
      });
      return { userId: user.id, role };
    });
    // The member's signed-in devices may use the whole product (and an admin's, admin) from their next request.
    await this.sessionStore.setVerified(verified.userId);
    await this.sessionStore.setRole(verified.userId, verified.role);
  }

  /**
   * Sends the confirmation link to the new address and, to the current one, a notice naming the
   * new address with a link that calls the change off: a stolen session cannot move the account
   * away unnoticed (issue 7, item 2). The route needs a verified account, so the notice goes to a
   * proven address. The member's limit was counted by the guard (MemberRequestLimits).
   */
  async requestEmailChange(principal: AuthPrincipal, dto: RequestEmailChangeDto): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const user = await m.findOneOrFail(User, { where: { id: principal.userId } });
      if (user.email.toLowerCase() === dto.newEmail) throw badRequest(AuthMessages.emailChangeSame, AuthErrorCode.EmailChangeSame);
      const taken = await this.accounts.emailTaken(m, dto.newEmail);
      if (taken) throw conflict(AuthMessages.emailTaken, AuthErrorCode.EmailTaken);
      const token = await this.tokens.issue(m, user.id, 'email_change', dto.newEmail);
      const cancelToken = await this.tokens.issue(m, user.id, 'email_change_cancel');
      // The new address is not verified: no user-chosen text in what it receives (item 6).
      await this.outbox.enqueueJob(m, QueueName.Email, {
        template: 'email-change',
        to: dto.newEmail,
        userId: user.id,
        name: null,
        link: this.link(WEB_ROUTES.verifyEmailChange, token),
        vars: { newEmail: dto.newEmail },
      });
      await this.outbox.enqueueJob(m, QueueName.Email, {
        template: 'email-change-requested',
        to: user.email,
        userId: user.id,
        name: user.emailVerifiedAt ? user.name : null,
        link: this.link(WEB_ROUTES.cancelEmailChange, cancelToken),
        vars: { newEmail: dto.newEmail },
      });
    });
  }

  /** The link of the email-change-requested notice: every pending change of the account stops. */
  async cancelEmailChange(token: string, ip: string | null): Promise<void> {
    await this.limits.consume('tokenIp', addressKey(ip));
    await this.dataSource.transaction(async (m) => {
      const row = await this.tokens.find(m, token, 'email_change_cancel', true);
      if (!row) throw badRequest(AuthMessages.emailChangeCancelInvalid, AuthErrorCode.InvalidToken);
      await this.tokens.retireEmailChangeTokens(m, row.userId);
    });
  }

  async verifyEmailChange(token: string, ip: string | null): Promise<string> {
    await this.limits.consume('tokenIp', addressKey(ip));
    let changed: { userId: string; newEmail: string; role: Role };
    try {
      changed = await this.dataSource.transaction(async (m) => {
        const row = await this.tokens.find(m, token, 'email_change', true);
        if (!row || !row.newEmail) throw badRequest(AuthMessages.verificationLinkInvalid, AuthErrorCode.InvalidToken);
        // The change is done: its cancellation link stops working with it.
        await this.tokens.retireEmailChangeTokens(m, row.userId);
        const user = await m.findOneOrFail(User, { where: { id: row.userId } });
        const oldEmail = user.email;
        const changedAt = this.clock.now();
        // Opening the link proves the new address, so it counts as verified.
        await m.update(User, { id: user.id }, { email: row.newEmail, emailVerifiedAt: user.emailVerifiedAt ?? changedAt });
        const role = await this.grantRoleOnVerified(m, user, row.newEmail);
        await this.outbox.publish(m, 'user.email_changed', {
          userId: user.id,
          oldEmail,
          newEmail: row.newEmail,
          changedAt: changedAt.toISOString(),
        });
        return { userId: user.id, newEmail: row.newEmail, role };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(AuthMessages.emailTaken, AuthErrorCode.EmailTaken);
      throw e;
    }
    await this.sessionStore.setVerified(changed.userId);
    await this.sessionStore.setRole(changed.userId, changed.role);
    return changed.newEmail;
  }

  /** The admin:grant command. */
  grantAdmin(email: string): Promise<UserDto> {
    return this.setRoleByEmail(email, ROLE_ADMIN);
  }

  /**
   * The admin:revoke command. An address in ADMIN_EMAILS is refused: its next sign-in would make
   * it admin again, so the revocation would not hold.
   */
  async revokeAdmin(email: string): Promise<UserDto> {
    if (this.admins.has(email.trim().toLowerCase())) {
      throw badRequest(
        `${email.trim()} is listed in ADMIN_EMAILS, which makes it admin again at sign-in; remove it there first`,
        AuthErrorCode.AdminEmailListed,
      );
    }
    return this.setRoleByEmail(email, ROLE_MEMBER);
  }

  /** The account's role, and at once the role of its live sessions (the tokens carry no role of their own). */
  private async setRoleByEmail(email: string, role: Role): Promise<UserDto> {
    const user = await this.accounts.findByEmail(this.dataSource.manager, email.trim().toLowerCase());
    if (!user) throw notFound(`No account with email ${email}`, AuthErrorCode.AccountNotFound);
    await this.users.update({ id: user.id }, { role });
    await this.sessionStore.setRole(user.id, role);
    return toUserDto({ ...user, role });
  }
}
