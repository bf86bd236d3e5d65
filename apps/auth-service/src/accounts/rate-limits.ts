import { Inject, Injectable } from '@nestjs/common';
import { AuthMessages, GdprMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type CountedKind, type RateLimitRule, type RedisClient } from '@mate/server-kit';
import { AuthEnv } from '../auth.env';

/**
 * Limits on the calls that guess passwords or send email (ARCHITECTURE §4). Rules whose name
 * ends in `Ip` count per client address and are scaled by IP_RATE_LIMIT_MULTIPLIER. Every
 * per-address key is rateLimitAddress(ip): an IPv4 address, or an IPv6 address's /64.
 */
export const AUTH_RATE_LIMITS = {
  /** Sign-in attempts from one address, whatever the account. */
  loginIp: { points: 30, durationSeconds: 15 * 60 },
  /**
   * Failed sign-ins on one account from one address: the 5th locks that account for that address
   * for 15 minutes. The owner's right password from any other address still works (issue 7, item 4).
   * Applies to every address, known ones included.
   */
  loginAccountAddress: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /**
   * The slower brake on guessing from many addresses: the 50th failure on one account within an
   * hour, from anywhere, puts it on for 15 minutes. While it is on, only addresses the account
   * signed in from in the last 90 days (KnownAddresses) may try the password, so strangers cannot
   * lock the owner out; others get 429 before the password is checked. Not reset by a successful
   * sign-in (guesses made meanwhile still count); a password reset clears it.
   */
  loginAccount: { points: 50, durationSeconds: 60 * 60, blockSeconds: 15 * 60 },
  registerIp: { points: 20, durationSeconds: 60 * 60 },
  forgotIp: { points: 10, durationSeconds: 60 * 60 },
  forgotEmail: { points: 3, durationSeconds: 60 * 60 },
  resendUser: { points: 5, durationSeconds: 60 * 60 },
  emailChangeUser: { points: 5, durationSeconds: 60 * 60 },
  tokenIp: { points: 30, durationSeconds: 15 * 60 },
  /** Data exports one member may ask for: each one reads every service's tables (issue 12). */
  exportUser: { points: 5, durationSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export type AuthRateLimit = keyof typeof AUTH_RATE_LIMITS;
export const AUTH_RATE_LIMITER = Symbol('AUTH_RATE_LIMITER');

/** The rules with the per-address ones scaled by `multiplier`. */
export function authRateLimits(multiplier: number): Record<AuthRateLimit, RateLimitRule> {
  const rules = { ...AUTH_RATE_LIMITS } as Record<AuthRateLimit, RateLimitRule>;
  for (const name of Object.keys(rules) as AuthRateLimit[]) {
    if (name.endsWith('Ip')) rules[name] = { ...rules[name], points: rules[name].points * multiplier };
  }
  return rules;
}

/** The rules counted per signed-in member (per-address scaling never applies to them). */
type MemberRule = 'resendUser' | 'emailChangeUser' | 'exportUser';

/** The member's own requests counted by the kit (`@CountedPerMember(MemberRequestLimits, kind)`), their rule and refusal. */
const COUNTED = {
  /** POST /api/verification/resend. */
  resendVerification: { rules: ['resendUser'], message: AuthMessages.tooManyAttempts },
  /** POST /api/auth/request-email-change. */
  emailChange: { rules: ['emailChangeUser'], message: AuthMessages.tooManyAttempts },
  /** POST /api/gdpr/export. */
  export: { rules: ['exportUser'], message: GdprMessages.tooManyExports },
} satisfies Record<string, CountedKind<MemberRule>>;

/**
 * The signed-in member's limits on the mail they make us send and on exports: every request
 * counts, whatever it comes to, so the guard counts it in the session check's Redis call (the
 * routes' `@CountedPerMember`). The same rules and keys as AUTH_RATE_LIMITER's. The limits on
 * guessing (per address, per account, failures only) are the service's: they depend on the work.
 */
@Injectable()
export class MemberRequestLimits extends MemberLimits<MemberRule, keyof typeof COUNTED> {
  constructor(@Inject(REDIS) redis: RedisClient, env: AuthEnv) {
    const { resendUser, emailChangeUser, exportUser } = AUTH_RATE_LIMITS;
    super(redis, env.KEY_PREFIX, { resendUser, emailChangeUser, exportUser }, COUNTED);
  }
}
