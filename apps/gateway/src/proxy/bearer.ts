import { createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import type { JwtClaims } from '@mate/contracts';
import { VERIFIED_TOKENS_MAX, VerifiedTokenCache } from '@mate/server-kit';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The gateway's check of a bearer token: a signed, unexpired HS256 JWT naming a user and a session.
 *
 * A token whose signature checked out is remembered by its exact text until its `exp` (the kit's
 * `VerifiedTokenCache`, up to `max`), so a member's next requests skip jsonwebtoken's decode and
 * HMAC (about a tenth of the gateway's CPU per proxied request); the session is still asked of
 * Redis on every request.
 */
export class BearerVerifier {
  // A KeyObject, not the string: given a string, jsonwebtoken first tries to parse it as a PEM
  // public key on every verify (an OpenSSL decode and a thrown error, ~0.45 ms of CPU each time).
  private readonly jwt: JwtService;
  private readonly verified: VerifiedTokenCache<JwtClaims>;

  constructor(secret: string, max = VERIFIED_TOKENS_MAX) {
    this.jwt = new JwtService({ secret: createSecretKey(Buffer.from(secret, 'utf8')) });
    this.verified = new VerifiedTokenCache(max);
  }

  /** The claims of the `Authorization` header's bearer token; null without a valid one. */
  claims(header: string | undefined, nowMs = Date.now()): JwtClaims | null {
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) return null;
    const known = this.verified.lookup(token, nowMs);
    if (known !== undefined) return known;
    let claims: JwtClaims;
    try {
      claims = this.jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    if (typeof claims.sub !== 'string' || !claims.sub || typeof claims.sid !== 'string' || !claims.sid)
      return null;
    this.verified.remember(token, claims);
    return claims;
  }

  /** Tokens remembered now: the test seam (bearer.spec.ts). */
  remembered(): number {
    return this.verified.size;
  }
}
