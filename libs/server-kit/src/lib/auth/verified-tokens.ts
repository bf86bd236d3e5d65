/** Tokens whose signature one process remembers having checked, at most (the oldest go first). */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Claims of bearer tokens whose signature and claims already checked out, remembered by the
 * token's exact text until its `exp`, so the next request or socket event with the same token
 * skips jsonwebtoken's decode and HMAC. Used by the gateway's `BearerVerifier` and the kit's
 * `JwtStrategy`.
 *
 * This remembers only that the *text* was signed with the secret, which is true forever; whether
 * the session is still alive is asked of Redis every time all the same, so a revoked session stops
 * at its very next request. Only tokens that verified are put in, so a client cannot fill the map
 * with its own strings; a secret rotation restarts the process, and the map with it. Tokens
 * without a numeric `exp`, or with an `nbf`, are not remembered (none are issued today): they are
 * checked every time. Bounded: past `max` the oldest entry goes.
 */
export class VerifiedTokenCache<C extends { exp?: number }> {
  private readonly verified = new Map<string, C & { exp: number }>();

  constructor(private readonly max = VERIFIED_TOKENS_MAX) {}

  /**
   * The claims remembered for `token`: the claims while it is unexpired; null once the clock
   * (whole seconds, jsonwebtoken's rule) has reached its `exp`, which forgets it; undefined for a
   * token not remembered (check it, then `remember` it).
   */
  lookup(token: string, nowMs = Date.now()): C | null | undefined {
    const known = this.verified.get(token);
    if (!known) return undefined;
    if (Math.floor(nowMs / 1000) < known.exp) return known;
    this.verified.delete(token);
    return null;
  }

  /** Remembers the claims of a token that has just verified (unless it has no `exp`, or an `nbf`). */
  remember(token: string, claims: C): void {
    if (typeof claims.exp !== 'number' || 'nbf' in claims) return;
    if (this.verified.size >= this.max) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims as C & { exp: number });
  }

  /** Tokens remembered now. */
  get size(): number {
    return this.verified.size;
  }
}
