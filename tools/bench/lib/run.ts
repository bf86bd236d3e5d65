// The frame every TypeScript bench runs in: loopback-only connection URLs, a note when the machine
// is busy, removal of its own Redis keys, and cleanup on Ctrl-C. Shared by tools/bench/events and
// tools/bench/photos, and the chat and suggestions benches (log, timed, ensureBuilt).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

const ROOT = path.resolve(__dirname, '../../..');

/** A progress line on stderr (stdout carries the results). */
export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Runs `work` and logs how long it took. */
export async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  log(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** Builds `projects` with Nx unless `force` is off and every one of `mains` (paths from the root) exists. */
export function ensureBuilt(projects: string[], mains: string[], force: boolean): void {
  if (!force && mains.every((main) => existsSync(path.join(ROOT, main)))) return;
  log(`building ${projects.join(' and ')}`);
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '-p', ...projects], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (r.status !== 0) throw new Error('build failed');
}

/**
 * Where a bench writes its result: `BENCH_RESULT_FILE` when set (the smoke runs of `npm test`
 * write to a temporary file, never over a measured result), else the bench's own last-result.json.
 */
export function resultFile(ownFile: string): string {
  return process.env.BENCH_RESULT_FILE || ownFile;
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; 0 when unreadable. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** A flag's value as a whole number within [min, max], or an error naming the flag and the range. */
export function wholeNumberFlag(flag: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}
