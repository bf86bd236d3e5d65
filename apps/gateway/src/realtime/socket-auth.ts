import { createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import type { Socket } from 'socket.io';
import { AuthMessages, ErrorCode, SocketMessages, type AuthPrincipal, type JwtClaims } from '@mate/contracts';
import type { SessionStore } from '@mate/server-kit';

/**
 * Who an authenticated socket is. `principal` becomes `socket.data`, which connection state
 * recovery stores in Redis; the token is kept in memory only, to forward with client events.
 */
export interface SocketIdentity {
  principal: AuthPrincipal;
  token: string;
}

/** A refused handshake: the client's `connect_error` carries the message and `data.code`. */
export class HandshakeRefused extends Error {
  readonly data: { code: ErrorCode };
  constructor(message: string, code: ErrorCode) {
    super(message);
    this.data = { code };
  }
}

const BEARER_PREFIX = /^Bearer[ \t]+/i;

/**
 * The handshake's bearer token: `auth.token` (what the app sends), else the `token` query
 * parameter for clients that cannot set `auth`. Query strings stay out of the gateway's logs;
 * an ingress's access log may still record them, which is why the app never uses it.
 */
export function handshakeToken(socket: Pick<Socket, 'handshake'>): string | null {
  const fromAuth = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
  const fromQuery = socket.handshake.query?.token;
  const token = typeof fromAuth === 'string' && fromAuth ? fromAuth : typeof fromQuery === 'string' ? fromQuery : '';
  return token.replace(BEARER_PREFIX, '').trim() || null;
}

/**
 * Authenticates a handshake exactly as the edge authenticates a request: a signed, unexpired
 * HS256 token naming a user and a session, and that session alive in Redis (touched, so it
 * slides like any request), of a verified account: realtime is a member feature, which the
 * verify-email prompt does not need. Throws `HandshakeRefused` otherwise.
 */
export type SocketAuthenticator = (socket: Pick<Socket, 'handshake'>) => Promise<SocketIdentity>;

export function createSocketAuthenticator(jwtSecret: string, sessions: SessionStore): SocketAuthenticator {
  const jwt = new JwtService({ secret: createSecretKey(Buffer.from(jwtSecret, 'utf8')) });
  return async (socket: Pick<Socket, 'handshake'>): Promise<SocketIdentity> => {
    const token = handshakeToken(socket);
    let claims: JwtClaims | null = null;
    if (token) {
      try {
        claims = jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] });
      } catch {
        claims = null;
      }
    }
    if (!token || !claims || typeof claims.sub !== 'string' || !claims.sub || typeof claims.sid !== 'string' || !claims.sid) {
      throw new HandshakeRefused(AuthMessages.authRequired, ErrorCode.Unauthorized);
    }
    let live;
    try {
      live = await sessions.touch(claims.sid, claims.sub);
    } catch {
      throw new HandshakeRefused(SocketMessages.serviceUnavailable, ErrorCode.ServiceUnavailable);
    }
    if (!live) throw new HandshakeRefused(AuthMessages.sessionExpired, ErrorCode.SessionExpired);
    if (!live.verified) throw new HandshakeRefused(AuthMessages.emailNotVerified, ErrorCode.EmailNotVerified);
    return { principal: { userId: claims.sub, sessionId: claims.sid, role: live.role, verified: true }, token };
  };
}
