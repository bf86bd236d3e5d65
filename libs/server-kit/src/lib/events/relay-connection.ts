import Redis from 'ioredis';

/** How long the relay waits for Redis to accept a connection before trying again. */
const RELAY_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The relay's own Redis connection. Unlike a worker's, it fails fast: no offline queue and one
 * retry per command, so a publish while Redis is down rejects at once instead of waiting for it
 * (the relay then releases its claim and backs off). ioredis keeps reconnecting in the background.
 */
export function createRelayConnection(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: RELAY_CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

export class TimeoutError extends Error {}

/**
 * Rejects when `promise` has not settled within `ms`. BullMQ waits for a connection that never
 * became ready (Redis down at start-up), and nothing else bounds that wait.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`no answer from Redis within ${ms} ms`)), ms);
  });
  // The abandoned promise may still reject later; that must not become an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
