import type { RateLimitRule } from '@mate/server-kit';

/** Limits on the calls that guess passwords or send email (ARCHITECTURE §4). */
export const AUTH_RATE_LIMITS = {
  /** Sign-in attempts from one address. */
  loginIp: { points: 30, durationSeconds: 15 * 60 },
  /** Failed sign-ins on one account; then the account is locked out for 15 minutes. */
  loginAccount: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  registerIp: { points: 20, durationSeconds: 60 * 60 },
  forgotIp: { points: 10, durationSeconds: 60 * 60 },
  forgotEmail: { points: 3, durationSeconds: 60 * 60 },
  resendUser: { points: 5, durationSeconds: 60 * 60 },
  emailChangeUser: { points: 5, durationSeconds: 60 * 60 },
  tokenIp: { points: 30, durationSeconds: 15 * 60 },
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
