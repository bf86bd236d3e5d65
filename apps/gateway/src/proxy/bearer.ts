import { createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import type { JwtClaims } from '@mate/contracts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Tokens whose signature this replica remembers having checked, at most (the oldest go first). */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * The gateway's check of a bearer token: a signed, unexpired HS256 JWT naming a user and a session.
 *
 * A token whose signature checked out is remembered (up to `VERIFIED_TOKENS_MAX`, by its exact
 * text) until its `exp`, so a member's next requests skip jsonwebtoken's decode and HMAC (about a
 * tenth of the gateway's CPU per proxied request). This remembers only that the *text* was signed
 * with the secret, which is true forever; whether the session is still alive is asked of Redis on
 * every request all the same, so a revoked session stops at its very next request. Only tokens
 * that verified get in, so a client cannot fill the map with its own strings; a secret rotation
 * restarts the process, and the map with it. Tokens without a numeric `exp`, or with an `nbf`,
 * are checked every time (none are issued today).
 */
export class BearerVerifier {
  // A KeyObject, not the string: given a string, jsonwebtoken first tries to parse it as a PEM
  // public key on every verify (an OpenSSL decode and a thrown error, ~0.45 ms of CPU each time).
  private readonly jwt: JwtService;
  private readonly verified = new Map<string, JwtClaims & { exp: number }>();

  constructor(
    secret: string,
    private readonly max = VERIFIED_TOKENS_MAX,
  ) {
    this.jwt = new JwtService({ secret: createSecretKey(Buffer.from(secret, 'utf8')) });
  }

  /** The claims of the `Authorization` header's bearer token; null without a valid one. */
  claims(header: string | undefined, nowMs = Date.now()): JwtClaims | null {
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) return null;
    // jsonwebtoken's rule: expired once the clock (whole seconds) reaches exp.
    const now = Math.floor(nowMs / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (now < known.exp) return known;
      this.verified.delete(token);
      return null;
    }
    let claims: JwtClaims;
    try {
      claims = this.jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    if (typeof claims.sub !== 'string' || !claims.sub || typeof claims.sid !== 'string' || !claims.sid)
      return null;
    if (typeof claims.exp === 'number' && !('nbf' in claims)) {
      if (this.verified.size >= this.max) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims as JwtClaims & { exp: number });
    }
    return claims;
  }

  /** Tokens remembered now: the test seam (bearer.spec.ts). */
  remembered(): number {
    return this.verified.size;
  }
}
