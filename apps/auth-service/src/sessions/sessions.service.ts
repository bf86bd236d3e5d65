import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { JwtService } from '@nestjs/jwt';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { AuthErrorCode, AuthMessages, type AuthPrincipal, type JwtClaims, type Role, type SessionDto } from '@mate/contracts';
import { badRequest, forbidden, notFound, SessionStore, unauthorized } from '@mate/server-kit';
import { User } from '../accounts/user.entity';
import { TokensService } from '../tokens/tokens.service';
import { Session } from './session.entity';

export interface DeviceContext {
  userAgent?: string;
  deviceInfo: string;
  ipAddress: string | null;
}

function isForeignKeyViolation(e: unknown): boolean {
  return (e as { driverError?: { code?: string } })?.driverError?.code === '23503' || (e as { code?: string })?.code === '23503';
}

/** Sign-ins: the session row, its live Redis entry, and the bearer token that names both. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly store: SessionStore,
    private readonly jwt: JwtService,
    private readonly tokens: TokensService,
  ) {}

  /** `verified`: the account's email is verified; until it is, the guards refuse most routes. */
  async start(userId: string, role: Role, verified: boolean, device: DeviceContext): Promise<string> {
    const id = randomUUID();
    try {
      await this.sessions.insert({ id, userId, deviceInfo: device.deviceInfo, ipAddress: device.ipAddress });
    } catch (e) {
      // The account was deleted since the password was checked.
      if (isForeignKeyViolation(e)) throw unauthorized(AuthMessages.invalidCredentials, AuthErrorCode.InvalidCredentials);
      throw e;
    }
    await this.store.create(id, userId, role, verified);
    // An account deleted or suspended between the password check and the Redis entry: the
    // deletion or suspension ended the sessions it saw before this one was live, so this one ends
    // here (AccountDeletionService, SuspensionService).
    const account = await this.sessions.manager.findOne(User, { where: { id: userId }, select: { id: true, suspendedAt: true } });
    if (!account || account.suspendedAt) {
      await this.store.revoke(id, userId);
      await this.sessions.update({ id }, { revokedAt: new Date() });
      if (!account) throw unauthorized(AuthMessages.invalidCredentials, AuthErrorCode.InvalidCredentials);
      throw forbidden(AuthMessages.accountSuspended, AuthErrorCode.AccountSuspended);
    }
    const claims: JwtClaims = { sub: userId, sid: id, role };
    return this.jwt.signAsync(claims);
  }

  async list(principal: AuthPrincipal): Promise<SessionDto[]> {
    const rows = await this.sessions.find({
      where: { userId: principal.userId, revokedAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    const activity = await this.store.lastActivity(rows.map((r) => ({ sessionId: r.id, userId: principal.userId })));
    const live = rows.filter((r) => activity.has(r.id));
    const dead = rows.filter((r) => !activity.has(r.id)).map((r) => r.id);
    if (dead.length) await this.sessions.update({ id: In(dead) }, { revokedAt: new Date() });
    return live
      .map((r) => ({
        id: r.id,
        deviceInfo: r.deviceInfo,
        ...(r.ipAddress ? { ipAddress: r.ipAddress } : {}),
        lastActivity: new Date(activity.get(r.id) ?? r.createdAt.getTime()).toISOString(),
        createdAt: r.createdAt.toISOString(),
        isCurrent: r.id === principal.sessionId,
      }))
      .sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent) || b.lastActivity.localeCompare(a.lastActivity));
  }

  async end(userId: string, sessionId: string): Promise<void> {
    await this.store.revoke(sessionId, userId);
    await this.sessions.update({ id: sessionId, userId }, { revokedAt: new Date() });
  }

  async endOne(principal: AuthPrincipal, sessionId: string): Promise<void> {
    if (sessionId === principal.sessionId) throw badRequest(AuthMessages.cannotRevokeCurrent, AuthErrorCode.CannotRevokeCurrent);
    const row = await this.sessions.findOne({ where: { id: sessionId, userId: principal.userId, revokedAt: IsNull() } });
    if (!row) throw notFound(AuthMessages.sessionNotFound, AuthErrorCode.SessionNotFound);
    await this.end(principal.userId, sessionId);
  }

  /** Ends every session of the user but `keep`; returns how many ended. */
  async endAll(userId: string, keep?: string, manager: EntityManager = this.sessions.manager): Promise<number> {
    const ended = await this.store.revokeAllForUser(userId, keep);
    const rows = await manager.find(Session, { where: { userId, revokedAt: IsNull() }, select: { id: true } });
    const ids = rows.map((r) => r.id).filter((id) => id !== keep);
    if (ids.length) await manager.update(Session, { id: In(ids) }, { revokedAt: new Date() });
    return Math.max(ended.length, ids.length);
  }

  /**
   * "Log out other devices": whoever held another session may have asked for an email change
   * to their own address, so a pending change is called off with them (issue 7, item 2).
   */
  async endOthers(principal: AuthPrincipal): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      await this.tokens.retireEmailChangeTokens(m, principal.userId);
      return this.endAll(principal.userId, principal.sessionId, m);
    });
  }
}
