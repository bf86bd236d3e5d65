// `npm run bench:chat`: chat delivery (issue 9) through the real path, beside a bare socket.io
// relay. Starts the built chat-service and gateway on free ports against a fresh database
// (mate_bench_chat_<random>, migrated by the service, dropped after) and a fresh Redis key prefix,
// with the rate limits raised out of the way; mints sessions for 1,000 members straight in Redis,
// opens 500 conversations (pairs) in the database, connects 1,000 socket.io-client sockets through
// the gateway and measures: a fixed load (500 messages/s for 20 s: end-to-end latency send → the
// recipient's new_message, deliveries and acknowledgements per second, errors), then a ramp to
// saturation (the highest deliveries per second). The same 1,000 clients and the same two phases
// then run against a bare relay (relay.cjs) for the baseline. Loopback only. See tools/bench/README.md.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { SessionStore } from '@mate/server-kit';
import { issueSession, runCommand, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { adminQuery, withDatabase } from '../lib/database';
import { benchUrls, cleanupOnSignal, deleteKeysAndDisconnect, ensureBuilt, log, noteLoad, processCpuMs, resultFile, timed, wholeNumberFlag } from '../lib/run';
import { Fleet, ramp, type BenchMember, type CpuProbe, type PhaseResult } from './load';

const ROOT = path.resolve(__dirname, '../../..');
const CHAT_MAIN = 'dist/apps/chat-service/main.js';
const GATEWAY_MAIN = 'dist/apps/gateway/main.js';
const RELAY_MAIN = 'tools/bench/chat/relay.cjs';
const RESULT_FILE = resultFile(path.join(ROOT, 'tools/bench/chat/last-result.json'));
/**
 * Issue 27's bars: the highest rate delivered (durable before the ack), the server CPU per message
 * where the ramp still kept up, and the fixed load's p99. The bare relay stays beside them for scale.
 */
const TARGETS = { p99Ms: 20, deliveredPerSecond: 3_700, cpuMsPerMessage: 0.45 };
/** BENCH_CPU_PROFILE_DIR=<dir>: the gateway and chat-service write V8 CPU profiles there (on exit). */
const PROFILE_ARGS = process.env.BENCH_CPU_PROFILE_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`]
  : [];
/** BENCH_PG_LOG_STATEMENTS=1: PostgreSQL logs every statement of the run's database with its duration. */
const PG_LOG_STATEMENTS = process.env.BENCH_PG_LOG_STATEMENTS === '1';
/** Everything a limit counts stays in the path (each check still runs) but never refuses here. */
const UNLIMITED = '100000000';

interface Options {
  members: number;
  rate: number;
  seconds: number;
  stepSeconds: number;
  rampStart: number;
  maxRate: number;
  build: boolean;
  /** Skip the bare relay (A/B runs of Mate alone). */
  mateOnly: boolean;
}

const USAGE = `Usage: npm run bench:chat -- [options]
  --members N        members (sockets), in pairs (default 1000, 2–10000, even)
  --rate R           messages/s offered in the fixed-load phase (default 500)
  --seconds S        length of the fixed-load phase (default 20, 1–120)
  --step-seconds S   length of each ramp step (default 3, 1–60)
  --ramp-start R     the ramp's first rate, then ×1.5 a step (default 100)
  --max-rate R       highest rate the ramp offers (default 20000)
  --build            build gateway and chat-service first (also done when dist lacks them)
  --mate-only        skip the bare relay (its columns print as –)
Environment: BENCH_CPU_PROFILE_DIR=<dir> (V8 CPU profiles of gateway and chat-service),
  BENCH_PG_LOG_STATEMENTS=1 (log_min_duration_statement = 0 on the run's database)
`;

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    members: 1000,
    rate: 500,
    seconds: 20,
    stepSeconds: 3,
    rampStart: 100,
    maxRate: 20_000,
    build: false,
    mateOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--members') opts.members = wholeNumberFlag(flag, value(), 2, 10_000);
    else if (flag === '--rate') opts.rate = wholeNumberFlag(flag, value(), 1, 100_000);
    else if (flag === '--seconds') opts.seconds = wholeNumberFlag(flag, value(), 1, 120);
    else if (flag === '--step-seconds') opts.stepSeconds = wholeNumberFlag(flag, value(), 1, 60);
    else if (flag === '--ramp-start') opts.rampStart = wholeNumberFlag(flag, value(), 1, 1_000_000);
    else if (flag === '--max-rate') opts.maxRate = wholeNumberFlag(flag, value(), 1, 1_000_000);
    else if (flag === '--build') opts.build = true;
    else if (flag === '--mate-only') opts.mateOnly = true;
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`Unknown argument: ${argv[i]}\n\n${USAGE}`);
  }
  if (opts.members % 2 !== 0) throw new Error('--members must be even (members talk in pairs)');
  return opts;
}


/**
 * chat-service's own `migrate`. A build running at the same time (another terminal, a test's
 * build) rewrites dist/ for a few seconds: a failed attempt is retried twice after a pause.
 */
async function migrate(env: Record<string, string>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(CHAT_MAIN, 'migrate', env);
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      log(`migrate failed (attempt ${attempt}; dist being rebuilt?), retrying in 10 s`);
      await new Promise((r) => setTimeout(r, 10_000));
    }
  }
}

/** The members' chat_member rows and one open conversation per pair (2k, 2k+1), as match.created leaves them. */
async function openConversations(url: string, ids: string[]): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO chat_member (user_id, name, profile_picture, version)
       SELECT id, 'Bench ' || n, NULL, 1 FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [ids],
    );
    const pairs: [string, string][] = [];
    for (let k = 0; k + 1 < ids.length; k += 2)
      pairs.push(ids[k] < ids[k + 1] ? [ids[k], ids[k + 1]] : [ids[k + 1], ids[k]]);
    await db.query(
      `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at)
       SELECT gen_random_uuid(), a, b, gen_random_uuid(), now() FROM unnest($1::uuid[], $2::uuid[]) AS t(a, b)`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    await db.query('ANALYZE chat_member, conversation');
  } finally {
    await db.end();
  }
}

interface Side {
  name: string;
  fixed: PhaseResult;
  ramp: { steps: PhaseResult[]; maxDeliveredPerSecond: number; saturatedAt: number | null };
  /** CPU ms per second of each server process with every socket connected and no message sent. */
  idle: Record<string, number>;
}

/**
 * One side: the ramp first (from a rate every server here keeps up with), so that it starts from
 * an idle server; then the fixed load, last, because a server it overloads may take a while to
 * work off its backlog.
 */
async function measure(name: string, fleet: Fleet, opts: Options, quiesce?: () => Promise<void>): Promise<Side> {
  await timed(`${name}: ${opts.members} sockets connected`, () => fleet.connect());
  // A short warm-up (JIT, connection pools, prepared statements), not measured.
  await fleet.phase(`${name} warm-up`, 100, 2, 3_000);
  const idle = await fleet.idleCpuMsPerSecond(3);
  const rampResult = await ramp(fleet, name, {
    start: opts.rampStart,
    stepSeconds: opts.stepSeconds,
    maxRate: opts.maxRate,
    log,
  });
  await fleet.settle(30_000);
  // The ramp's overload leaves work behind the answers (Mate: the outbox relay's backlog of
  // message.sent): the fixed load starts once it is done, so it measures 500/s, not the backlog.
  await quiesce?.();
  log(`${name}: fixed load, ${opts.rate} messages/s for ${opts.seconds} s`);
  const fixed = await fleet.phase(`${name} fixed`, opts.rate, opts.seconds);
  log(
    `${name}: delivered ${fixed.deliveredPerSecond}/s, p50 ${fixed.p50} ms, p95 ${fixed.p95} ms, p99 ${fixed.p99} ms, ` +
      `${fixed.errors} errors, ${fixed.lost} undelivered, client CPU ${fixed.clientCpuPercent} %`,
  );
  fleet.close();
  return { name, fixed, ramp: rampResult, idle };
}

/** The ramp's last step the server kept up with (else its first): where its cost per message is read. */
function keptUp(side: Side): PhaseResult {
  const { steps, saturatedAt } = side.ramp;
  return saturatedAt !== null && steps.length > 1 ? steps[steps.length - 2] : steps[steps.length - 1];
}

const cpuSum = (phase: PhaseResult) => {
  const values = Object.values(phase.serverCpuMsPerMessage);
  return values.length ? Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100 : NaN;
};

function printTable(mate: Side, relay: Side | null, opts: Options): void {
  const ratio = (a: number, b: number) =>
    b > 0 && Number.isFinite(a) && Number.isFinite(b) ? `${(a / b).toFixed(2)}×` : '–';
  const f = (n: number) => (Number.isFinite(n) ? String(n) : '–');
  const metrics: [string, (side: Side) => number][] = [
    [`latency p50 at ${opts.rate}/s (ms)`, (s) => s.fixed.p50],
    [`latency p95 at ${opts.rate}/s (ms)`, (s) => s.fixed.p95],
    [`latency p99 at ${opts.rate}/s (ms)`, (s) => s.fixed.p99],
    [`latency max at ${opts.rate}/s (ms)`, (s) => s.fixed.max],
    ['ack p50 (ms)', (s) => s.fixed.ackP50],
    ['ack p99 (ms)', (s) => s.fixed.ackP99],
    ['delivered/s', (s) => s.fixed.deliveredPerSecond],
    ['acks/s', (s) => s.fixed.ackedPerSecond],
    ['errors', (s) => s.fixed.errors],
    ['acked, undelivered after 5 s', (s) => s.fixed.lost],
    ['bench client CPU (% of a core)', (s) => s.fixed.clientCpuPercent],
    ['max delivered/s (ramp)', (s) => s.ramp.maxDeliveredPerSecond],
    [`server CPU ms per message at ${opts.rate}/s`, (s) => cpuSum(s.fixed)],
    ['server CPU ms per message (ramp)', (s) => cpuSum(keptUp(s))],
    ['highest rate kept up with (/s)', (s) => keptUp(s).offeredPerSecond],
    ['latency p99 there (ms)', (s) => keptUp(s).p99],
  ];
  const rows: string[][] = [
    ['metric', 'Mate', 'bare relay', 'ratio'],
    ...metrics.map(([metric, get]) => {
      const a = get(mate);
      const b = relay ? get(relay) : NaN;
      return [metric, f(a), f(b), ratio(a, b)];
    }),
    [
      'saturated at offered (/s)',
      String(mate.ramp.saturatedAt ?? `> ${opts.maxRate}`),
      relay ? String(relay.ramp.saturatedAt ?? `> ${opts.maxRate}`) : '–',
      '',
    ],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [
    '',
    line(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
  ];
  for (const side of relay ? [mate, relay] : [mate]) {
    const step = keptUp(side);
    out.push(
      `${side.name} CPU ms per message at ${opts.rate}/s (fixed load): ` +
        Object.entries(side.fixed.serverCpuMsPerMessage)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', '),
    );
    out.push(
      `${side.name} CPU ms per message at ${step.offeredPerSecond}/s: ` +
        Object.entries(step.serverCpuMsPerMessage)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', ') +
        `; idle (sockets connected, no messages), CPU ms per second: ` +
        Object.entries(side.idle)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', '),
    );
    out.push(
      `${side.name} ramp: ${side.ramp.steps.map((s) => `${s.offeredPerSecond}→${s.deliveredPerSecond}/s (p99 ${s.p99} ms)`).join(', ')}`,
    );
    for (const phase of [side.fixed, ...side.ramp.steps]) {
      for (const [kind, n] of Object.entries(phase.errorKinds)) out.push(`${phase.label}: ${n}× ${kind}`);
    }
  }
  const mark = (met: boolean) => (met ? 'target met   ' : 'TARGET MISSED');
  const p99Met = mate.fixed.p99 <= TARGETS.p99Ms && mate.fixed.errors === 0 && mate.fixed.lost === 0;
  const deliveredMet = mate.ramp.maxDeliveredPerSecond >= TARGETS.deliveredPerSecond;
  const cpu = cpuSum(keptUp(mate));
  const cpuMet = cpu <= TARGETS.cpuMsPerMessage;
  out.push(
    '',
    `${mark(deliveredMet)}  Mate delivered ${mate.ramp.maxDeliveredPerSecond}/s at most >= ${TARGETS.deliveredPerSecond}/s` +
      (relay ? ` (bare relay ${relay.ramp.maxDeliveredPerSecond}/s: ${ratio(mate.ramp.maxDeliveredPerSecond, relay.ramp.maxDeliveredPerSecond)})` : ''),
    `${mark(cpuMet)}  server CPU ${f(cpu)} ms per message at ${keptUp(mate).offeredPerSecond}/s <= ${TARGETS.cpuMsPerMessage} ms`,
    `${mark(p99Met)}  p99 ${mate.fixed.p99} ms at ${opts.rate} msg/s <= ${TARGETS.p99Ms} ms (no errors, every acked message delivered)`,
  );
  out.push(`load average (1 min, ${os.cpus().length} CPUs): ${LOAD_AT_START} at the start, ${os.loadavg()[0].toFixed(2)} at the end`);
  process.stdout.write(`${out.join('\n')}\n`);
}

const LOAD_AT_START = os.loadavg()[0].toFixed(2);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { databaseUrl, redisUrl } = benchUrls();
  ensureBuilt(['gateway', 'chat-service'], [CHAT_MAIN, GATEWAY_MAIN], opts.build);
  noteLoad();
  const started = Date.now();

  const run = randomBytes(4).toString('hex');
  const database = `mate_bench_chat_${run}`;
  const prefix = `bench-chat-${run}`;
  const jwtSecret = `bench-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: withDatabase(databaseUrl, database),
    REDIS_URL: redisUrl,
    KEY_PREFIX: prefix,
    JWT_SECRET: jwtSecret,
    INTERNAL_TOKEN: `bench-internal-${randomBytes(16).toString('hex')}`,
    CHAT_MESSAGES_PER_10_SECONDS: UNLIMITED,
  };
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const processes: ServiceProcess[] = [];
  const fleets: Fleet[] = [];
  let created = false;
  const cleanup = async () => {
    for (const f of fleets.splice(0)) f.close();
    for (const p of processes.splice(0)) await p.stop();
    if (created)
      await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(
        () => undefined,
      );
    created = false;
    await deleteKeysAndDisconnect(redis, prefix);
  };
  cleanupOnSignal(cleanup);

  try {
    await adminQuery(databaseUrl, `CREATE DATABASE "${database}"`);
    created = true;
    await timed('migrate', () => migrate(env));
    const ids = Array.from({ length: opts.members }, () => randomUUID());
    await timed(`${opts.members} members, ${opts.members / 2} open conversations`, () =>
      openConversations(env.DATABASE_URL, ids),
    );

    if (PG_LOG_STATEMENTS) await adminQuery(databaseUrl, `ALTER DATABASE "${database}" SET log_min_duration_statement = 0`);
    const chat = await startServiceProcess(CHAT_MAIN, await freePort(), env, { health: '/health/ready', nodeArgs: PROFILE_ARGS });
    processes.push(chat);
    const gateway = await startServiceProcess(
      GATEWAY_MAIN,
      await freePort(),
      {
        ...env,
        CHAT_SERVICE_URL: chat.url,
        RATE_LIMIT_PER_MINUTE: UNLIMITED,
        IP_RATE_LIMIT_MULTIPLIER: '1000',
        SOCKET_EVENTS_PER_10_SECONDS: UNLIMITED,
        SOCKET_MAX_EVENTS_IN_FLIGHT: '100000',
        MAX_CONCURRENT_PER_CLIENT: '100000',
      },
      { health: '/health/ready', nodeArgs: PROFILE_ARGS },
    );
    processes.push(gateway);

    const store = new SessionStore(redis, prefix);
    const members: BenchMember[] = await timed(`${opts.members} sessions minted`, async () => {
      const out: BenchMember[] = [];
      for (const id of ids) {
        const { token } = await issueSession(
          store,
          jwtSecret,
          id as `${string}-${string}-${string}-${string}-${string}`,
        );
        out.push({ id, auth: { token } });
      }
      return out;
    });

    // CPU per message of each process of the path: the gateway, chat-service, and the PostgreSQL
    // backends serving this run's database (Redis is shared with other work: not counted).
    const mateProbe: CpuProbe = async () => {
      const rows = await adminQuery<{ pid: number }>(
        databaseUrl,
        `SELECT pid FROM pg_stat_activity WHERE datname = '${database}'`,
      );
      return {
        gateway: processCpuMs(gateway.pid),
        'chat-service': processCpuMs(chat.pid),
        postgres: rows.reduce((sum, r) => sum + processCpuMs(r.pid), 0),
      };
    };
    const mateFleet = new Fleet(gateway.url, members, 'mate', mateProbe);
    fleets.push(mateFleet);
    const outboxDrained = async () => {
      const started = performance.now();
      for (;;) {
        const [{ waiting }] = await adminQuery<{ waiting: number }>(
          withDatabase(databaseUrl, database),
          'SELECT count(*)::int AS waiting FROM outbox WHERE published_at IS NULL',
        );
        if (waiting === 0 || performance.now() - started > 60_000) {
          log(`Mate: outbox ${waiting === 0 ? 'drained' : `still holds ${waiting} rows`} after ${Math.round(performance.now() - started)} ms`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const mate = await measure('Mate', mateFleet, opts, outboxDrained);
    // The Mate side is stopped before the baseline runs, so it does not share the CPUs with it.
    for (const p of processes.splice(0)) await p.stop();

    if (opts.mateOnly) {
      printTable(mate, null, opts);
      writeFileSync(
        RESULT_FILE,
        `${JSON.stringify({ at: new Date().toISOString(), options: opts, load: os.loadavg(), cpus: os.cpus().length, mate, relay: null }, null, 2)}\n`,
      );
      return;
    }
    const relayProcess = await startServiceProcess(
      RELAY_MAIN,
      await freePort(),
      {},
      { health: '/health/live' },
    );
    processes.push(relayProcess);
    const relayFleet = new Fleet(
      relayProcess.url,
      members.map((m) => ({ id: m.id, auth: { userId: m.id } })),
      'relay',
      async () => ({ relay: processCpuMs(relayProcess.pid) }),
    );
    fleets.push(relayFleet);
    const relay = await measure('bare relay', relayFleet, opts);

    printTable(mate, relay, opts);
    writeFileSync(
      RESULT_FILE,
      `${JSON.stringify({ at: new Date().toISOString(), options: opts, load: os.loadavg(), cpus: os.cpus().length, mate, relay }, null, 2)}\n`,
    );
    log(
      `wrote ${path.relative(ROOT, RESULT_FILE)}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench chat failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
