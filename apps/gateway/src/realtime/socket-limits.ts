import type { Socket } from 'socket.io';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ErrorCode, SocketMessages, isClientEventName, type SocketErrorAck } from '@mate/contracts';

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
