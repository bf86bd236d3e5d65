import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthErrorCode, type AccountExportPart } from '@mate/contracts';
import { notFound, SessionStore, type MemberExporter } from '@mate/server-kit';
import { User } from '../accounts/user.entity';
import { MemberActivityRepository } from '../member-activity/member-activity.repository';
import { Session } from '../sessions/session.entity';
import { AuthToken } from '../tokens/auth-token.entity';


/**
 * The account's part of a member's data export: the account row, every session row (with its
 * last activity while it is live) and the email changes asked for. Never a password hash or a
 * token hash: those prove nothing to the member and would help whoever obtained the file.
 */
@Injectable()
export class AccountExporter implements MemberExporter<AccountExportPart> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly activity: MemberActivityRepository,
    private readonly sessionStore: SessionStore,
  ) {}

  async exportMember(userId: string): Promise<AccountExportPart> {
    const m = this.dataSource.manager;
    const user = await m.findOne(User, { where: { id: userId } });
    if (!user) throw notFound('Account not found', AuthErrorCode.AccountNotFound);
    const [sessions, changes, days] = await Promise.all([
      m.find(Session, { where: { userId }, order: { createdAt: 'ASC' } }),
      m.find(AuthToken, { where: { userId, kind: 'email_change' }, order: { createdAt: 'ASC' } }),
      this.activity.daysOf(m, userId),
    ]);
    const activity = await this.sessionStore.lastActivity(sessions.map((s) => ({ sessionId: s.id, userId })));
    const confirmed = confirmedChange(changes, user.email);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      age: user.age,
      role: user.role,
      isVerified: user.emailVerifiedAt !== null,
      createdAt: user.createdAt.toISOString(),
      emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
      suspendedAt: user.suspendedAt?.toISOString() ?? null,
      suspensionReason: user.suspensionReason,
      lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
      activeDays: days,
      sessions: sessions.map((s) => ({
        id: s.id,
        deviceInfo: s.deviceInfo,
        ipAddress: s.ipAddress,
        createdAt: s.createdAt.toISOString(),
        lastActivity: new Date(activity.get(s.id) ?? s.createdAt.getTime()).toISOString(),
        revokedAt: s.revokedAt?.toISOString() ?? null,
      })),
      emailChanges: changes.map((t) => ({
        newEmail: t.newEmail ?? '',
        requestedAt: t.createdAt.toISOString(),
        completedAt: t === confirmed ? (t.usedAt?.toISOString() ?? null) : null,
      })),
    };
  }
}

/**
 * The request that gave the account its current address: the latest spent one naming it. A token
 * keeps no mark of how it was spent (confirmed, called off, replaced), but an address different
 * from the one the account signed up with can only come from confirming such a request.
 */
function confirmedChange(changes: AuthToken[], currentEmail: string): AuthToken | undefined {
  return changes.filter((t) => t.usedAt && t.newEmail?.toLowerCase() === currentEmail.toLowerCase()).at(-1);
}
