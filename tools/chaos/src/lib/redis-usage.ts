import Redis from 'ioredis';
import { EVENT_JOB_OPTIONS } from '@mate/server-kit';

/**
 * What a Redis holds, grouped by key shape (ids and numbers folded: `mate:bull:events.chat-service:{n}`),
 * with each group's keys and bytes (`MEMORY USAGE`), and the server's own `used_memory`. The soak
 * reads it after the warm-up and at the end, so a growing Redis says what grew: data with a bound
 * (retained jobs, capped streams) or a leak.
 */
export interface RedisUsage {
  usedMemoryBytes: number;
  groups: Map<string, { keys: number; bytes: number }>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const NUMBER = /\d+/g;

export function keyShape(key: string): string {
  return key.replace(UUID, '{id}').replace(NUMBER, '{n}');
}

export async function readRedisUsage(url: string): Promise<RedisUsage> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    const info = await redis.info('memory');
    const usedMemoryBytes = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
    const groups = new Map<string, { keys: number; bytes: number }>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      if (keys.length === 0) continue;
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.memory('USAGE', key, 'SAMPLES', '0');
      const sizes = (await pipeline.exec()) ?? [];
      keys.forEach((key, i) => {
        const group = groups.get(keyShape(key)) ?? { keys: 0, bytes: 0 };
        group.keys++;
        group.bytes += Number(sizes[i]?.[1] ?? 0);
        groups.set(keyShape(key), group);
      });
    } while (cursor !== '0');
    return { usedMemoryBytes, groups };
  } finally {
    redis.disconnect();
  }
}

/**
 * The event queues' jobs (`<prefix>:events.<service>:<job id>`) and their completed sets: each
 * queue keeps up to `EVENT_JOB_OPTIONS.removeOnComplete.count` completed jobs for a day, by design
 * (the relay's redelivery window, `npm run events`), so Redis grows with traffic until every queue
 * holds that many and then stays. The soak counts that apart from everything else Redis holds.
 */
const EVENT_JOB = /:events\.[\w-]+:\{id\}$/;
const EVENT_COMPLETED = /:events\.[\w-]+:completed$/;
export const RETAINED_JOBS_PER_QUEUE = EVENT_JOB_OPTIONS.removeOnComplete.count;

export interface RetainedEventJobs {
  /** Bytes of the event queues' job hashes and completed sets. */
  bytes: number;
  /** The most job hashes one event queue holds (retained and in flight). */
  largestQueue: number;
}

export function retainedEventJobs(usage: RedisUsage): RetainedEventJobs {
  let bytes = 0;
  let largestQueue = 0;
  for (const [shape, group] of usage.groups) {
    if (EVENT_JOB.test(shape)) {
      bytes += group.bytes;
      largestQueue = Math.max(largestQueue, group.keys);
    } else if (EVENT_COMPLETED.test(shape)) {
      bytes += group.bytes;
    }
  }
  return { bytes, largestQueue };
}

/** What Redis holds apart from the event queues' retained jobs, in bytes of `used_memory`. */
export const otherThanRetainedJobs = (usage: RedisUsage) => usage.usedMemoryBytes - retainedEventJobs(usage).bytes;

const mib = (b: number) => (b / 1048576).toFixed(2);

/** The groups that hold the most at the end, side by side with the start. */
export function formatRedisUsage(start: RedisUsage, end: RedisUsage, top = 12): string {
  const shapes = [...new Set([...start.groups.keys(), ...end.groups.keys()])]
    .sort((a, b) => (end.groups.get(b)?.bytes ?? 0) - (end.groups.get(a)?.bytes ?? 0))
    .slice(0, top);
  return [
    `Redis used_memory: ${mib(start.usedMemoryBytes)} MiB after the warm-up, ${mib(end.usedMemoryBytes)} MiB at the end`,
    '',
    '| key shape | keys at start | MiB at start | keys at end | MiB at end |',
    '|---|---|---|---|---|',
    ...shapes.map((s) => {
      const a = start.groups.get(s) ?? { keys: 0, bytes: 0 };
      const b = end.groups.get(s) ?? { keys: 0, bytes: 0 };
      return `| \`${s}\` | ${a.keys} | ${mib(a.bytes)} | ${b.keys} | ${mib(b.bytes)} |`;
    }),
  ].join('\n');
}
