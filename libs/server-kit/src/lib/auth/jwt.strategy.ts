import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AuthMessages, ErrorCode, type AuthPrincipal, type JwtClaims } from '@mate/contracts';
import { SERVICE_ENV, type BaseServiceEnv } from '../config/config';
import { AppException, forbidden, serviceUnavailable, unauthorized } from '../errors/app.exception';
import type { AuthRequest } from './auth-context';
import { SessionStore, type AllowanceCounter, type WindowCount } from './session-store';
import { VerifiedTokenCache } from './verified-tokens';

/** The bearer token of a request, as passport-jwt reads it. */
const bearerTokenOf = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * Verifies the bearer token's signature, then asks Redis whether its session is still alive.
 * Each service's guard runs its own instance (`authenticateWith`): passport's registry holds one
 * 'jwt' strategy per process, the last one constructed, which would check every service's tokens
 * with the last service's secret and Redis prefix when several run in one process (tests).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(SERVICE_ENV) env: BaseServiceEnv,
    private readonly sessions: SessionStore,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the string: jsonwebtoken would otherwise try to parse the string as a PEM
      // key on every verify (about 0.45 ms of CPU per request, measured by the gateway benchmark).
      // (passport-jwt's types say string or Buffer; it hands the value to jsonwebtoken unchanged.)
      secretOrKey: createSecretKey(Buffer.from(env.JWT_SECRET, 'utf8')) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** Called by the mixin to register the strategy: a private registry, never the process-wide one. */
  getPassportInstance() {
    return new passport.Authenticator();
  }

  /**
   * What the global guard does for one request, for many bearer tokens at once (the gateway's
   * batched socket events): each token's signature and claims checked by passport-jwt exactly as
   * for a request, then every live session touched (and its idle expiry slid) in one Redis round
   * trip, then the guard's verified-account check. Answers in order: the principal, or the
   * 401/403 that token earns. A Redis failure rejects the whole call, as it fails a request.
   */
  async authenticateMany(tokens: string[], now = Date.now()): Promise<(AuthPrincipal | AppException)[]> {
    const claims = await Promise.all(tokens.map((token) => this.verifiedOnce(token)));
    const live: { index: number; sessionId: string; userId: string }[] = [];
    // Filled in below for the tokens whose claims name a session. Only a refused token gets an
    // exception (each one captures a stack trace): no placeholder refusal for the live majority.
    const out: (AuthPrincipal | AppException | null)[] = claims.map((c, index) => {
      if (!c?.sub || !c?.sid) return unauthorized(AuthMessages.authRequired);
      live.push({ index, sessionId: c.sid, userId: c.sub });
      return null;
    });
    const sessions = await this.sessions.touchMany(live, now);
    live.forEach(({ index, sessionId, userId }, i) => {
      const session = sessions[i];
      if (!session) out[index] = unauthorized(AuthMessages.sessionExpired, ErrorCode.SessionExpired);
      else if (!session.verified) out[index] = forbidden(AuthMessages.emailNotVerified, ErrorCode.EmailNotVerified);
      else out[index] = { userId, sessionId, role: session.role, verified: true };
    });
    return out as (AuthPrincipal | AppException)[];
  }

  /**
   * The guard's check of one request (`authenticateWith`) for a route whose per-member limits are
   * counted with the session (`@CountedPerMember`): the token's signature and claims checked by
   * passport-jwt as for any request (remembered by its text until its exp, as for a batch), then
   * the session touched and, if it is live (and verified when `verifiedOnly`), the member's
   * `counters` counted, in one Redis call. Rejects with the same 401s as `authenticateWith`, and a
   * 503 when Redis did not answer; answers the principal and the counts for the caller to judge.
   */
  async authenticateCounting(
    req: AuthRequest,
    countersOf: (userId: string) => AllowanceCounter[],
    { verifiedOnly }: { verifiedOnly: boolean },
  ): Promise<{ principal: AuthPrincipal; counts: WindowCount[] }> {
    const token = bearerTokenOf(req as unknown as Parameters<typeof bearerTokenOf>[0]);
    const claims = token ? await this.verifiedOnce(token) : null;
    if (!claims?.sub || !claims?.sid) throw unauthorized(AuthMessages.authRequired);
    let checked: Awaited<ReturnType<SessionStore['touchCountingMember']>>;
    try {
      checked = await this.sessions.touchCountingMember(claims.sid, claims.sub, countersOf(claims.sub), { verifiedOnly });
    } catch (err) {
      throw serviceUnavailable(err);
    }
    if (!checked.session) throw unauthorized(AuthMessages.sessionExpired, ErrorCode.SessionExpired);
    const { role, verified } = checked.session;
    return { principal: { userId: claims.sub, sessionId: claims.sid, role, verified }, counts: checked.counts };
  }

  /**
   * Tokens whose signature and claims passport-jwt accepted, by their exact text, until their
   * `exp` (`VerifiedTokenCache`): a member's every socket event carries the same token, and
   * checking its HMAC, decoding and parsing it again gave the same answer each time. Only the
   * signature check is remembered: the session is still looked up (and a revoked one refused) for
   * every event.
   */
  private readonly verifiedTokens = new VerifiedTokenCache<JwtClaims>();

  private async verifiedOnce(token: string): Promise<JwtClaims | null> {
    // The real clock, as jsonwebtoken's own expiry check reads it.
    const known = this.verifiedTokens.lookup(token);
    if (known !== undefined) return known;
    const claims = await verifiedClaims(this, token);
    if (claims) this.verifiedTokens.remember(token, claims);
    return claims;
  }

  async validate(claims: JwtClaims): Promise<AuthPrincipal> {
    if (!claims?.sub || !claims?.sid) throw unauthorized(AuthMessages.authRequired);
    const live = await this.sessions.touch(claims.sid, claims.sub);
    if (!live) throw unauthorized(AuthMessages.sessionExpired, ErrorCode.SessionExpired);
    return { userId: claims.sub, sessionId: claims.sid, role: live.role, verified: live.verified };
  }
}

/** What passport-jwt reports through: methods it expects on the strategy object it runs as. */
interface StrategyAttempt {
  authenticate(req: AuthRequest, options: object): void;
  success(user: AuthPrincipal): void;
  fail(challenge?: unknown): void;
  error(err: unknown): void;
  pass(): void;
  redirect(url: string): void;
}

/**
 * Runs the strategy on one request, as `passport.authenticate` does, without passport's registry.
 * The outcome callbacks go on a per-request copy (`Object.create`), never on the shared instance,
 * or concurrent requests would answer each other. Rejects with the 401 to throw, or a 503 when
 * the session could not be checked.
 */
export function authenticateWith(strategy: JwtStrategy, req: AuthRequest): Promise<AuthPrincipal> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(strategy) as StrategyAttempt;
    const refuse = () => reject(unauthorized(AuthMessages.authRequired));
    attempt.success = resolve;
    attempt.fail = refuse;
    attempt.pass = refuse;
    attempt.redirect = refuse;
    // A refusal the strategy chose passes as it is; anything else (Redis did not answer the session
    // check) is a retryable 503, not a 500: the member's session may well be alive.
    attempt.error = (err) => reject(err instanceof AppException ? err : serviceUnavailable(err));
    attempt.authenticate(req, { session: false });
  });
}

/**
 * The claims of a bearer token passport-jwt accepts (signature, algorithm, expiry: the strategy's
 * own options and code), without the strategy's `validate` (the caller checks the session), or
 * null for a token it refuses.
 */
function verifiedClaims(strategy: JwtStrategy, token: string): Promise<JwtClaims | null> {
  if (typeof token !== 'string' || !token) return Promise.resolve(null);
  return new Promise((resolve) => {
    const attempt = Object.create(strategy) as StrategyAttempt & { _verify(claims: JwtClaims, done: (err: unknown, user: unknown) => void): void };
    const refuse = () => resolve(null);
    attempt._verify = (claims, done) => done(null, claims);
    attempt.success = (claims) => resolve(claims as unknown as JwtClaims);
    attempt.fail = refuse;
    attempt.pass = refuse;
    attempt.redirect = refuse;
    attempt.error = refuse;
    attempt.authenticate({ headers: { authorization: `Bearer ${token}` } }, { session: false });
  });
}
