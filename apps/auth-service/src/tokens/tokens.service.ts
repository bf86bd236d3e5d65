import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { EMAIL_CHANGE_TOKEN_TTL, EMAIL_VERIFICATION_TOKEN_TTL, RESET_TOKEN_TTL } from '@mate/contracts';
import { CLOCK, type Clock } from '@mate/server-kit';
import { AuthToken, type AuthTokenKind } from './auth-token.entity';

const TTL: Record<AuthTokenKind, number> = {
  verify_email: EMAIL_VERIFICATION_TOKEN_TTL,
  reset_password: RESET_TOKEN_TTL,
  email_change: EMAIL_CHANGE_TOKEN_TTL,
  // As long as the change it calls off can be confirmed: after that there is nothing to cancel.
  email_change_cancel: EMAIL_CHANGE_TOKEN_TTL,
};

/** The tokens of a pending email change: the confirmation sent to the new address and the cancellation sent to the old. */
const EMAIL_CHANGE_KINDS: AuthTokenKind[] = ['email_change', 'email_change_cancel'];

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Random link tokens: issued (earlier ones of the same kind die, but cancellations), checked, and spent once. */
@Injectable()
export class TokensService {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  async issue(manager: EntityManager, userId: string, kind: AuthTokenKind, newEmail: string | null = null): Promise<string> {
    const now = this.clock.now();
    // Every change notice's link may call off whatever change is pending: a thief asking twice
    // must not turn the first notice's link dead while the second change waits.
    if (kind !== 'email_change_cancel') await manager.update(AuthToken, { userId, kind, usedAt: IsNull() }, { usedAt: now });
    const token = randomBytes(32).toString('base64url');
    await manager.insert(AuthToken, {
      userId,
      kind,
      tokenHash: hashToken(token),
      newEmail,
      expiresAt: new Date(now.getTime() + TTL[kind]),
    });
    return token;
  }

  /** The live token row, or null when unknown, spent or expired. Locks the row when spending. */
  async find(manager: EntityManager, token: string, kind: AuthTokenKind, forUpdate = false): Promise<AuthToken | null> {
    if (!token || token.length > 200) return null;
    const row = await manager.findOne(AuthToken, {
      where: { tokenHash: hashToken(token), kind },
      ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row || row.usedAt || row.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    return row;
  }

  async spend(manager: EntityManager, row: AuthToken): Promise<void> {
    await manager.update(AuthToken, { id: row.id }, { usedAt: this.clock.now() });
  }

  /**
   * Spends every live token of the user's pending email change: its confirmation link and its
   * cancellation links stop working. Used when the change is called off (the cancel link, a
   * password reset, 'log out other devices') and when it is confirmed. Returns how many were live.
   */
  async retireEmailChangeTokens(manager: EntityManager, userId: string): Promise<number> {
    const result = await manager.update(
      AuthToken,
      { userId, kind: In(EMAIL_CHANGE_KINDS), usedAt: IsNull() },
      { usedAt: this.clock.now() },
    );
    return result.affected ?? 0;
  }
}
