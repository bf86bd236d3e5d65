import Redis, { type RedisOptions } from 'ioredis';

export const REDIS = Symbol('REDIS');
/** The connection a service's own BullMQ queues share (event maintenance, readiness). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/** A command connection (fails fast while Redis is down, so requests answer 503 rather than hang). */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false, ...options });
}

/** A connection for BullMQ workers and queues, which must retry forever. */
export function createQueueConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false });
}
