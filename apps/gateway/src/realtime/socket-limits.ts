import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { Socket } from 'socket.io';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AuthMessages, ErrorCode, SocketMessages, isClientEventName, type SocketErrorAck } from '@mate/contracts';
import { rateLimitAddress, type RedisClient } from '@mate/server-kit';
import { HandshakeRefused } from './socket-auth';

/** The window of the per-socket event limit. */
export const SOCKET_RATE_WINDOW_SECONDS = 10;
/**
 * A socket that keeps sending after being refused this many times its allowance in one window
 * is not a slow client but abuse: it is disconnected.
 */
export const SOCKET_ABUSE_FACTOR = 2;

type Ack = (answer: SocketErrorAck) => void;
type Packet = [event: string, ...args: unknown[]];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The checks every client event passes before it is routed, as socket.io middleware: the
 * per-socket rate limit (refused with an error acknowledgement; disconnect on abuse), known event
 * names only (an unknown one is answered with an error, never silently dropped), and exactly one
 * JSON object as payload. Per socket and in memory: a socket lives on one replica.
 */
export function createEventChecks(eventsPerWindow: number, onAbuse: (socket: Socket) => void) {
  const limiter = new RateLimiterMemory({ points: eventsPerWindow, duration: SOCKET_RATE_WINDOW_SECONDS });
  return (socket: Socket) =>
    async ([event, ...args]: Packet, next: (err?: Error) => void): Promise<void> => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
      try {
        await limiter.consume(socket.id);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        if (refusal.consumedPoints > eventsPerWindow * SOCKET_ABUSE_FACTOR) return onAbuse(socket);
        return ack?.({ error: SocketMessages.tooManyEvents, code: ErrorCode.RateLimited });
      }
      if (!isClientEventName(event)) return ack?.({ error: SocketMessages.unknownEvent, code: ErrorCode.NotFound });
      if (args.length !== 1 || !isPlainObject(args[0])) {
        return ack?.({ error: SocketMessages.invalidPayload, code: ErrorCode.ValidationFailed });
      }
      next();
    };
}

/** Express's compiled "trust proxy" setting: is the hop at this address (i hops from us) trusted? */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The client's address as Express computes `req.ip` under the gateway's TRUST_PROXY (the
 * handshake never reaches Express): walk X-Forwarded-For from the nearest hop while it is trusted.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket.remoteAddress ?? 'unknown', ...forwarded];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i], i)) return hops[i];
  return hops[hops.length - 1];
}

/**
 * A handshake counts as one request of its address's budget at the edge (RATE_LIMIT_PER_MINUTE,
 * the same Redis counter, under the same key: an IPv6 client's /64): reconnect storms and handshake
 * floods are refused like request floods.
 * Redis trouble lets the handshake through, as the edge does with requests.
 */
export function createHandshakeLimiter(redis: RedisClient, keyPrefix: string, perMinute: number, trust: TrustProxy, logger: Logger) {
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:rl:gateway`, points: perMinute, duration: 60 });
  return async (req: IncomingMessage): Promise<void> => {
    try {
      await limiter.consume(rateLimitAddress(clientAddress(req, trust)));
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw new HandshakeRefused(AuthMessages.tooManyAttempts, ErrorCode.RateLimited);
      logger.warn({ err: refusal }, 'rate limiter unavailable');
    }
  };
}
