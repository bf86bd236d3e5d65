import { createRedisConnection, type RedisClient, type RedisSource } from '../redis/redis';

/**
 * The relay's own Redis connection. Unlike a worker's, it fails fast: no offline queue and one
 * retry per command, so a publish while Redis is down rejects at once instead of waiting for it
 * (the relay then releases its claim and backs off). ioredis keeps reconnecting in the background.
 */
export function createRelayConnection(source: RedisSource): RedisClient {
  return createRedisConnection(source, 'relay');
}
