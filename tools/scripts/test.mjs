#!/usr/bin/env node
// `npm test`: lint, type checks, unit and integration suites of every project (against real
// PostgreSQL and Redis), then the end-to-end journeys against the whole running platform.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
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

const env = {
  ...process.env,
  // libs/testing would start containers for every suite when an engine answers: the suites use the
  // local servers, and one service's suites prove the containers (tools/scripts/testcontainers-stage.mjs).
  TESTCONTAINERS: process.env.TESTCONTAINERS ?? 'off',
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
};
const nx = path.join(ROOT, 'node_modules/.bin/nx');
const stages = [
  ['lint, type checks, unit and integration tests', nx, ['run-many', '-t', 'lint,typecheck,test', '--exclude=e2e', '--parallel=2', '--output-style=stream']],
  ['end-to-end journeys (API and browser)', nx, ['run-many', '-t', 'lint,typecheck,test', '-p', 'e2e', '--parallel=1', '--output-style=stream']],
  // Alone, after the journeys (whose builds it reuses from Nx's cache): every bench at a smoke
  // size must start, measure and write its result (tools/bench/smoke.test.mjs). Heavy processes,
  // so not beside stage 1's timing-sensitive suites.
  ['every bench at a smoke size', nx, ['run', 'bench:smoke', '--output-style=stream']],
  // Alone as well: the scaled topology (issue 29), twenty processes: a Redis Cluster, a PostgreSQL
  // primary and replica behind PgBouncer, two replicas of everything behind HAProxy; two API
  // journeys, then the chaos population under a Redis master, the replica, a service and a gateway killed.
  ['the scaled topology under faults (short scale check)', nx, ['run', 'chaos:test-scale', '--output-style=stream']],
];
/**
 * Runs one Nx stage, streaming its output, and keeps each project's recent lines: CI shows only
 * the end of a run, so a failed stage ends with what its failed tasks said about the failure.
 */
function runStage(command, args) {
  const recent = new Map(); // project → its last lines, without colours (`-`: lines of no project)
  const failed = new Set(); // the projects Nx lists under "Failed tasks:"
  const keep = (line) => {
    const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
    const failedTask = /^\s*-\s+([\w-]+):[\w-]+\s*$/.exec(plain);
    if (failedTask) failed.add(failedTask[1]);
    const project = /^([\w-]+):\s/.exec(plain)?.[1] ?? '-';
    const lines = recent.get(project) ?? [];
    lines.push(plain);
    if (lines.length > 3000) lines.splice(0, lines.length - 3000);
    recent.set(project, lines);
  };
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    const follow = (stream, out) => {
      let pending = '';
      stream.on('data', (chunk) => {
        out.write(chunk);
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() ?? '';
        lines.forEach(keep);
      });
      stream.on('end', () => pending && keep(pending));
    };
    follow(child.stdout, process.stdout);
    follow(child.stderr, process.stderr);
    child.on('close', (code) => {
      // A stage that is not Nx names no failed task: its own lines are the summary.
      if (code !== 0 && failed.size === 0) failed.add('-');
      resolve({ ok: code === 0, recent, failed });
    });
  });
}

// `thrown:` and a lower-case `timeout`: how Jest words a test that ran out of time.
const FAILURE_LINE = /FAIL|✕|×|✗|●|Error|error TS|timed out|[Tt]imeout|thrown:|Expected|Received|failed|problem/;

function failureSummary(recent, failed, { brief = false } = {}) {
  for (const project of failed) {
    const lines = recent.get(project) ?? [];
    const said = lines.filter((line) => FAILURE_LINE.test(line) && !/\b0 failed\b/.test(line));
    const shown = brief ? 40 : 120;
    console.log(`\n[mate] npm test: what ${project} said about failures (${said.length} lines, the last ${shown}):`);
    for (const line of said.slice(-shown)) console.log(line);
  }
  if (brief) return;
  for (const project of failed) {
    const lines = recent.get(project) ?? [];
    console.log(`\n[mate] npm test: the last ${Math.min(40, lines.length)} lines of ${project}:`);
    for (const line of lines.slice(-40)) console.log(line);
  }
}

let failedStages = 0;
/** Failed stages' summaries, printed again at the very end: CI shows only the end of a run. */
const failures = [];
for (const [name, command, args] of stages) {
  log(`npm test: ${name}`);
  const stageStarted = Date.now();
  const { ok, recent, failed } = await runStage(command, args);
  log(`npm test: ${name}: ${Math.round((Date.now() - stageStarted) / 1000)} s`);
  if (!ok) {
    failedStages++;
    failureSummary(recent, failed);
    failures.push({ name, recent, failed });
    log(`npm test: ${name} FAILED`);
  }
}
for (const { name, recent, failed } of failures) {
  log(`npm test: again, what the failed stage "${name}" said:`);
  failureSummary(recent, failed, { brief: true });
}
const seconds = Math.round((Date.now() - started) / 1000);
log(`npm test: ${stages.length - failedStages} stages passed, ${failedStages} failed (${seconds} s)`);
process.exit(failedStages ? 1 : 0);
