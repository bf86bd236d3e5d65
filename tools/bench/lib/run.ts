// The frame every TypeScript bench runs in: loopback-only connection URLs, a note when the machine
// is busy, removal of its own Redis keys, and cleanup on Ctrl-C. Shared by tools/bench/events and
// tools/bench/photos.
import os from 'node:os';
import type Redis from 'ioredis';
import { requireLoopback } from './database';

/** DATABASE_URL and REDIS_URL (local defaults), refused unless they point at this machine. */
export function benchUrls(): { databaseUrl: string; redisUrl: string } {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  requireLoopback('DATABASE_URL', databaseUrl);
  requireLoopback('REDIS_URL', redisUrl);
  return { databaseUrl, redisUrl };
}

/** Says so when other work on the machine will show in the numbers. */
export function noteLoad(): void {
  const load = os.loadavg()[0];
  if (load > os.cpus().length / 2) {
    process.stdout.write(`note: load average ${load.toFixed(1)} on ${os.cpus().length} CPUs; other work will show in the numbers\n`);
  }
}

/** Deletes every key under `${prefix}:`, then disconnects. */
export async function deleteKeysAndDisconnect(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

/** Runs `cleanup` on SIGINT/SIGTERM, then exits with 130. */
export function cleanupOnSignal(cleanup: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
}
