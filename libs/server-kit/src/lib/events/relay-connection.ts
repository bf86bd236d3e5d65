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
