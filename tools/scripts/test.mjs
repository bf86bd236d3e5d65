#!/usr/bin/env node
// `npm test`: lint, type checks, unit and integration suites of every project (against real
// PostgreSQL and Redis), then the end-to-end journeys against the whole running platform.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
if (!existsSync(path.join(ROOT, 'node_modules/.bin/nx'))) {
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const { ensurePostgres, ensureRedis, log } = await import('./lib/platform.mjs');

const started = Date.now();
await ensurePostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
await ensureRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const nx = path.join(ROOT, 'node_modules/.bin/nx');
const stages = [
  ['lint, type checks, unit and integration tests', ['run-many', '-t', 'lint,typecheck,test', '--exclude=e2e', '--parallel=2', '--output-style=stream']],
  ['end-to-end journeys (API and browser)', ['run-many', '-t', 'lint,typecheck,test', '-p', 'e2e', '--parallel=1', '--output-style=stream']],
];
let failedStages = 0;
for (const [name, args] of stages) {
  log(`npm test: ${name}`);
  const r = spawnSync(nx, args, { cwd: ROOT, stdio: 'inherit', env });
  if (r.status !== 0) {
    failedStages++;
    log(`npm test: ${name} FAILED`);
  }
}
const seconds = Math.round((Date.now() - started) / 1000);
log(`npm test: ${stages.length - failedStages} stages passed, ${failedStages} failed (${seconds} s)`);
process.exit(failedStages ? 1 : 0);
