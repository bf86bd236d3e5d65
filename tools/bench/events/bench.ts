// `npm run bench:events`: profile-service (built, a real process) takes PUT /api/profile/me
// at a steady rate; each change publishes profile.updated through its outbox, its relay hands it to
// BullMQ and the kit's EventConsumer, as matching-service (another process, its own database),
// applies it. Prints outbox-to-handled lag p50/p95/p99 and events/s, for a baseline rate and the
// target rate side by side. Loopback only, bounded, and it removes what it created.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { SessionStore } from '@mate/server-kit';
import { issueSession, runCommand, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { adminQuery, withDatabase } from '../lib/database';
import { benchUrls, cleanupOnSignal, deleteKeysAndDisconnect, ensureBuilt, noteLoad, processCpuMs, resultFile } from '../lib/run';

const ROOT = path.resolve(__dirname, '../../..');
const RESULT_FILE = resultFile(path.join(ROOT, 'tools/bench/events/last-result.json'));
const PROFILE_MAIN = 'dist/apps/profile-service/main.js';
/** Loaded into the producer before its main: profile.updated goes to matching-service's queue only. */
const ROUTE_TO_MATCHING = path.join(__dirname, 'route-to-matching.cjs');
// Issue 27's bar: 500 events/s handled with lag p99 within 100 ms, and at most 2 ms of the
// producer's CPU per PUT /api/profile/me (relay included).
const TARGET_RATE = 500;
const TARGET_P99_MS = 100;
const TARGET_PRODUCER_CPU_MS = 2;
const WARMUP_SECONDS = 2;
const MAX_SECONDS = 60;
const MAX_RATE = 2000;
const MEMBERS = 200;
/** How long the consumer may take to drain a phase once the producer stopped sending. */
const DRAIN_TIMEOUT_MS = 60_000;
const TICK_MS = 10;
const OUTPUT_TAIL = 8000;
const JWT_SECRET = `bench-${randomBytes(16).toString('hex')}`;

interface Options {
  seconds: number;
  rates: number[];
  build: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { seconds: 10, rates: [100, TARGET_RATE], build: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--seconds') opts.seconds = Number(value());
    else if (flag === '--rates') opts.rates = value().split(',').map(Number);
    else if (flag === '--build') opts.build = true;
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write('Usage: npm run bench:events -- [--seconds <s>=10] [--rates <baseline>,<target>=100,500] [--build]\n');
      process.exit(0);
    } else throw new Error(`Unknown argument: ${argv[i]}`);
  }
  if (!Number.isInteger(opts.seconds) || opts.seconds < 1 || opts.seconds > MAX_SECONDS) {
    throw new Error(`--seconds must be a whole number between 1 and ${MAX_SECONDS}`);
  }
  if (opts.rates.length === 0 || opts.rates.some((r) => !Number.isInteger(r) || r < 1 || r > MAX_RATE)) {
    throw new Error(`--rates must be whole numbers of events/s between 1 and ${MAX_RATE}`);
  }
  return opts;
}

const children: ChildProcess[] = [];
const services: ServiceProcess[] = [];
/** Set once the bench stops its children on purpose (their exit is then no news). */
let cleaned = false;

/** BENCH_CPU_PROFILE_DIR=<dir>: the producer and the consumer write V8 CPU profiles there. */
const PROFILE_ARGS = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];

function startChild(script: string, args: string[], env: NodeJS.ProcessEnv, readyLine?: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...PROFILE_ARGS, path.join(__dirname, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  // Only the tail is kept: enough to say why a child died, bounded however long the run.
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-OUTPUT_TAIL));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code) => {
    if (!cleaned) process.stderr.write(`${script} exited with ${code}:\n${output}\n`);
  });
  if (!readyLine) return Promise.resolve(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.stdout?.on('data', () => output.includes(readyLine) && resolve(child));
  });
}

interface PhaseResult {
  rate: number;
  sent: number;
  failed: number;
  handled: number;
  eventsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Of the lag, the part until the relay had published the row (outbox to queue). */
  relayP50: number;
  relayP99: number;
  /** Relay passes that published this phase's rows, per second, and the rows each carried on average. */
  relayPassesPerSecond: number;
  rowsPerPass: number;
  httpP99: number;
  /** CPU ms per event spent by the producer (HTTP, transaction, relay) and by the consumer. */
  producerCpuMsPerEvent: number;
  consumerCpuMsPerEvent: number;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Sends PUT /api/profile/me at `rate` per second for `seconds` (open loop: never waits for answers). */
async function drive(baseUrl: string, tokens: string[], rate: number, seconds: number, seq: { n: number }) {
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = Date.now();
  const total = rate * seconds;
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      const token = tokens[sent % tokens.length];
      const n = ++seq.n;
      const t0 = performance.now();
      pending.push(
        fetch(`${baseUrl}/api/profile/me`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ bio: `Bench change number ${n}.` }),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            if (res.status === 200) latencies.push(performance.now() - t0);
            else failed += 1;
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  await Promise.all(pending);
  return { sent, failed, latencies: latencies.sort((a, b) => a - b) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { databaseUrl, redisUrl } = benchUrls();
  ensureBuilt(['profile-service'], [PROFILE_MAIN], opts.build);

  const run = randomBytes(4).toString('hex');
  const prefix = `bench-events-${run}`;
  const dbs = { producer: `mate_bench_profile_${run}`, consumer: `mate_bench_matching_${run}` };
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all(
      children
        .filter((c) => c.exitCode === null)
        .map(
          (c) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => c.kill('SIGKILL'), 8000);
              c.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              c.kill('SIGTERM');
            }),
        ),
    );
    for (const name of Object.values(dbs)) await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await deleteKeysAndDisconnect(redis, prefix);
  };
  cleanupOnSignal(cleanup);

  try {
    noteLoad();
    for (const name of Object.values(dbs)) await adminQuery(databaseUrl, `CREATE DATABASE "${name}"`);
    const common = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      REDIS_URL: redisUrl,
      KEY_PREFIX: prefix,
      JWT_SECRET,
      INTERNAL_TOKEN: `bench-internal-${randomBytes(16).toString('hex')}`,
      PHOTO_STORAGE: 'local',
      PHOTO_DIR: path.join(os.tmpdir(), `mate-bench-events-${run}`),
    };
    const producerEnv = { ...common, DATABASE_URL: withDatabase(databaseUrl, dbs.producer) };
    process.stdout.write('migrating and starting profile-service (producer) and the matching-service consumer...\n');
    await runCommand(PROFILE_MAIN, 'migrate', producerEnv);
    const startProducer = async () => {
      const started = await startServiceProcess(PROFILE_MAIN, await freePort(), producerEnv, {
        health: '/health/ready',
        nodeArgs: [...PROFILE_ARGS, '--require', ROUTE_TO_MATCHING],
      });
      services.push(started);
      return started;
    };
    const [producer, consumer] = await Promise.all([
      startProducer(),
      startChild('consumer.cjs', [], { ...common, DATABASE_URL: withDatabase(databaseUrl, dbs.consumer) }, 'consumer ready'),
    ]);
    const baseUrl = producer.url;

    // Members as the seeder writes them, with live sessions as auth-service issues them.
    const producerDb = new Client({ connectionString: producerEnv.DATABASE_URL });
    const consumerDb = new Client({ connectionString: withDatabase(databaseUrl, dbs.consumer) });
    await Promise.all([producerDb.connect(), consumerDb.connect()]);
    const { rows } = await producerDb.query<{ user_id: string }>(
      `INSERT INTO profiles (user_id, name, age) SELECT gen_random_uuid(), 'Bench ' || n, 30 FROM generate_series(1, $1) n RETURNING user_id`,
      [MEMBERS],
    );
    const store = new SessionStore(redis, prefix);
    const tokens = await Promise.all(rows.map((r) => issueSession(store, JWT_SECRET, r.user_id as `${string}-${string}-${string}-${string}-${string}`).then((s) => s.token)));

    const seq = { n: 0 };
    const results: PhaseResult[] = [];
    for (const rate of opts.rates) {
      process.stdout.write(`${rate} events/s: ${WARMUP_SECONDS} s warm-up, then ${opts.seconds} s measured...\n`);
      await drive(baseUrl, tokens, rate, WARMUP_SECONDS, seq);
      const from = new Date();
      const cpuBefore = [processCpuMs(producer.pid), processCpuMs(consumer.pid ?? 0)];
      const phase = await drive(baseUrl, tokens, rate, opts.seconds, seq);
      const to = new Date();
      const accepted = phase.sent - phase.failed;
      // Every accepted change is one event: wait until the consumer applied all of this phase's.
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      let handled = 0;
      for (;;) {
        const r = await consumerDb.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM bench_handled WHERE occurred_at >= $1 AND occurred_at < $2',
          [from, to],
        );
        handled = r.rows[0].n;
        if (handled >= accepted || Date.now() > deadline) break;
        await new Promise((r2) => setTimeout(r2, 200));
      }
      const cpuAfter = [processCpuMs(producer.pid), processCpuMs(consumer.pid ?? 0)];
      const lag = await consumerDb.query<{ ms: number }>(
        `SELECT extract(epoch FROM handled_at - occurred_at) * 1000 AS ms FROM bench_handled
          WHERE occurred_at >= $1 AND occurred_at < $2 ORDER BY 1`,
        [from, to],
      );
      const lags = lag.rows.map((r) => Number(r.ms));
      const relay = await producerDb.query<{ ms: number }>(
        `SELECT extract(epoch FROM published_at - (body->>'occurredAt')::timestamptz) * 1000 AS ms FROM outbox
          WHERE kind = 'event' AND (body->>'occurredAt')::timestamptz >= $1 AND (body->>'occurredAt')::timestamptz < $2
            AND published_at IS NOT NULL ORDER BY 1`,
        [from, to],
      );
      const relayLags = relay.rows.map((r) => Number(r.ms));
      // A pass stamps every row it publishes with one published_at (now() of its UPDATE).
      const passes = await producerDb.query<{ rows: number; passes: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT published_at)::int AS passes FROM outbox
          WHERE kind = 'event' AND (body->>'occurredAt')::timestamptz >= $1 AND (body->>'occurredAt')::timestamptz < $2
            AND published_at IS NOT NULL`,
        [from, to],
      );
      const { rows: relayed, passes: relayPasses } = passes.rows[0];
      const span = await consumerDb.query<{ s: number }>(
        `SELECT extract(epoch FROM max(handled_at) - min(occurred_at)) AS s FROM bench_handled WHERE occurred_at >= $1 AND occurred_at < $2`,
        [from, to],
      );
      results.push({
        rate,
        sent: phase.sent,
        failed: phase.failed,
        handled,
        eventsPerSecond: Math.round(handled / Number(span.rows[0].s || 1)),
        p50: Math.round(percentile(lags, 0.5)),
        p95: Math.round(percentile(lags, 0.95)),
        p99: Math.round(percentile(lags, 0.99)),
        max: Math.round(lags[lags.length - 1] ?? NaN),
        relayP50: Math.round(percentile(relayLags, 0.5)),
        relayP99: Math.round(percentile(relayLags, 0.99)),
        relayPassesPerSecond: Math.round(relayPasses / opts.seconds),
        rowsPerPass: Number((relayed / Math.max(1, relayPasses)).toFixed(1)),
        httpP99: Math.round(percentile(phase.latencies, 0.99)),
        producerCpuMsPerEvent: Number(((cpuAfter[0] - cpuBefore[0]) / Math.max(1, handled)).toFixed(1)),
        consumerCpuMsPerEvent: Number(((cpuAfter[1] - cpuBefore[1]) / Math.max(1, handled)).toFixed(1)),
      });
    }
    await Promise.all([producerDb.end(), consumerDb.end()]);

    const header =
      '| rate (ev/s) | sent | failed | handled | handled ev/s | lag p50 | lag p95 | lag p99 | lag max | relay p50/p99 | relay passes/s (rows/pass) | PUT p99 | CPU ms/event producer/consumer |';
    const lines = results.map(
      (r) =>
        `| ${r.rate} | ${r.sent} | ${r.failed} | ${r.handled} | ${r.eventsPerSecond} | ${r.p50} ms | ${r.p95} ms | ${r.p99} ms | ${r.max} ms | ${r.relayP50}/${r.relayP99} ms | ${r.relayPassesPerSecond} (${r.rowsPerPass}) | ${r.httpP99} ms | ${r.producerCpuMsPerEvent}/${r.consumerCpuMsPerEvent} |`,
    );
    process.stdout.write(`\n${header}\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n`);
    const target = results.find((r) => r.rate === TARGET_RATE);
    if (target) {
      const allHandled = target.failed === 0 && target.handled === target.sent;
      const met =
        allHandled &&
        target.eventsPerSecond >= TARGET_RATE * 0.98 &&
        target.p99 <= TARGET_P99_MS &&
        target.producerCpuMsPerEvent <= TARGET_PRODUCER_CPU_MS;
      process.stdout.write(
        `\n${met ? 'target met' : 'TARGET MISSED'} at ${TARGET_RATE} events/s: ${target.handled} of ${target.sent} handled (${target.eventsPerSecond}/s), ` +
          `lag p99 ${target.p99} ms (target <= ${TARGET_P99_MS} ms), producer CPU ${target.producerCpuMsPerEvent} ms per PUT (target <= ${TARGET_PRODUCER_CPU_MS} ms)\n`,
      );
    }
    writeFileSync(
      RESULT_FILE,
      `${JSON.stringify({ at: new Date().toISOString(), seconds: opts.seconds, load: os.loadavg(), results }, null, 2)}\n`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:events failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
