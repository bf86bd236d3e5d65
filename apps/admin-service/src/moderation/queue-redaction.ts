/**
 * What the queue dashboard must not show (ADR 0018): an email job carries the link of a password
 * reset, an email verification or an email change, and whoever holds that link holds the account.
 * An admin reading the dashboard could otherwise ask for a member's reset and take the account
 * over, unaudited. Keys that carry such secrets are masked whole; any other string that holds a
 * token in a URL query has the token's value masked.
 */
export const REDACTED = '[redacted]';

/** Job data keys whose values are secrets (any depth). */
const SECRET_KEYS = new Set(['link', 'token', 'password', 'secret', 'auth', 'p256dh', 'endpoint', 'keys']);

/** `token=...` (and `t=`, `ticket=`, `code=`) in a URL or text. */
const TOKEN_IN_TEXT = /([?&#;](?:token|t|ticket|code)=)[^&#\s"'<>]+/gi;

/** A deep copy of `value` with every secret masked; the original is not changed. */
export function redactJobData(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (typeof value === 'string') return value.replace(TOKEN_IN_TEXT, `$1${REDACTED}`);
  if (Array.isArray(value)) return value.map((v) => redactJobData(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      out[key] = SECRET_KEYS.has(key.toLowerCase()) && v !== null && v !== undefined ? REDACTED : redactJobData(v, depth + 1);
    }
    return out;
  }
  return value;
}
