// `npm run bench:suggestions`: Discover at a million members (issue 8). Fills a bench database
// straight with candidate rows and a swipe history, starts the built matching-service and the
// gateway against it, and measures through the gateway: suggestion latency for members of dense
// cities and of sparse towns (beside the gateway's /health and the same call made straight to the
// service), like throughput, the CPU per request of each process on the path (gateway,
// matching-service, PostgreSQL), and the candidate query's plan. Loopback only; drops what it made
// (the database stays with --keep). See tools/bench/README.md.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import Redis from 'ioredis';
import { SessionStore } from '@mate/server-kit';
import { issueSession, runCommand, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { adminQuery, withDatabase } from '../lib/database';
import { benchUrls, cleanupOnSignal, deleteKeysAndDisconnect, ensureBuilt, log, noteLoad, resultFile, timed, wholeNumberFlag } from '../lib/run';
import { PathCpuMeter, type PathCpu } from './cpu';
import { closedLoop, request, type Phase } from './load';
import { insertCandidates, insertSwipes, placesOf, userIdSql, type Place } from './population';

const ROOT = path.resolve(__dirname, '../../..');
const MATCHING_MAIN = 'dist/apps/matching-service/main.js';
const GATEWAY_MAIN = 'dist/apps/gateway/main.js';
/** The bench database unless `--database` names another (two people benching at once each keep their own). */
const DEFAULT_DATABASE = 'mate_bench_matching';
/** A bench database's name: never one of the services' own databases. */
const DATABASE_NAME = /^mate_bench_[a-z0-9_]+$/;
/** What `--only` can run alone: the latency phases (and the candidate query's plan), or the likes. */
const PHASES = ['suggestions', 'likes'] as const;
type PhaseName = (typeof PHASES)[number];
/** BENCH_CPU_PROFILE_DIR=<dir>: matching-service and the gateway write V8 CPU profiles there (on exit). */
const PROFILE_ARGS = process.env.BENCH_CPU_PROFILE_DIR
  ? [
      '--cpu-prof',
      `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`,
      // Nest's shutdown hook re-sends SIGTERM to itself, and a process ended by a signal writes no profile.
      '--require',
      path.join(ROOT, 'tools/bench/gateway/exit-on-sigterm.cjs'),
    ]
  : [];
/** BENCH_PG_LOG_STATEMENTS=1: PostgreSQL logs every statement of the bench database with its duration. */
const PG_LOG_STATEMENTS = process.env.BENCH_PG_LOG_STATEMENTS === '1';
const RESULT_FILE = resultFile(path.join(ROOT, 'tools/bench/suggestions/last-result.json'));
/**
 * Issue 27's bars: suggestions p95 at most 30 ms with one client, and with `--concurrency` clients
 * (4 by default) p95 at most 60 ms at 150 answers a second or more; likes 2,000/s through the
 * gateway (32 clients). The candidate query's target is issue 8's.
 */
const TARGETS = {
  suggestionsP95Ms: 30,
  loadedSuggestionsP95Ms: 60,
  loadedSuggestionsPerSecond: 150,
  candidateQueryMs: 20,
  likesPerSecond: 2000,
};
/** Members of each kind whose suggestions are measured (each gets a live session). */
const MEASURED_PER_KIND = 200;
const SWIPES_PER_SWIPER = 4;
const PAGE = 20;

interface Options {
  members: number;
  seconds: number;
  concurrency: number;
  likeConcurrency: number;
  keep: boolean;
  reuse: boolean;
  build: boolean;
  database: string;
  /** The phases to run (both unless `--only`). */
  phases: PhaseName[];
}

const USAGE = `Usage: npm run bench:suggestions -- [options]
  --members N           candidate rows (default 1000000, 1000–2000000; small sizes are for smoke runs)
  --seconds S           length of each latency phase (default 10, 1–120)
  --concurrency N       clients at once in the loaded latency phases (default 4, 1–256; the first phases use 1)
  --like-concurrency N  clients liking at once (default 32, 1–256)
  --database NAME       the bench database (default ${DEFAULT_DATABASE}; mate_bench_[a-z0-9_]+), dropped and filled
  --only PHASE          run only the suggestions phases (with the candidate query's plan) or only the likes
  --keep                keep the database afterwards
  --reuse               measure the kept database as it is (no refill; it must hold the same --members)
  --build               build gateway and matching-service first (also done when dist lacks them)

Environment: BENCH_CPU_PROFILE_DIR=<dir> (V8 CPU profiles of matching-service and the gateway),
  BENCH_PG_LOG_STATEMENTS=1 (log_min_duration_statement = 0 on the bench database)
`;

function parseArgs(argv: string[]): Options {
  const opts: Options = { members: 1_000_000, seconds: 10, concurrency: 4, likeConcurrency: 32, keep: false, reuse: false, build: false, database: DEFAULT_DATABASE, phases: [...PHASES] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--members') opts.members = wholeNumberFlag(flag, value(), 1_000, 2_000_000);
    else if (flag === '--seconds') opts.seconds = wholeNumberFlag(flag, value(), 1, 120);
    else if (flag === '--concurrency') opts.concurrency = wholeNumberFlag(flag, value(), 1, 256);
    else if (flag === '--like-concurrency') opts.likeConcurrency = wholeNumberFlag(flag, value(), 1, 256);
    else if (flag === '--keep') opts.keep = true;
    else if (flag === '--reuse') opts.reuse = true;
    else if (flag === '--build') opts.build = true;
    else if (flag === '--database') {
      const name = value();
      if (!name || !DATABASE_NAME.test(name)) throw new Error(`--database must match ${DATABASE_NAME}`);
      opts.database = name;
    } else if (flag === '--only') {
      const phase = value();
      if (!PHASES.includes(phase as PhaseName)) throw new Error(`--only must be one of ${PHASES.join(', ')}`);
      opts.phases = [phase as PhaseName];
    }
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`Unknown argument: ${argv[i]}\n\n${USAGE}`);
  }
  return opts;
}


/** Fresh database: migrated by the built service's own `migrate`, then filled and analysed. */
async function fill(databaseUrl: string, database: string, env: Record<string, string>, places: Place[]): Promise<void> {
  await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await adminQuery(databaseUrl, `CREATE DATABASE "${database}"`);
  await timed('migrate', () => runCommand(MATCHING_MAIN, 'migrate', env));
  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    const members = places.reduce((n, p) => n + p.size, 0);
    await timed(`${members.toLocaleString('en-US')} candidate rows`, () => insertCandidates(db, places));
    await timed('swipe history', () => insertSwipes(db, places, SWIPES_PER_SWIPER));
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE candidate, swipe'));
  } finally {
    await db.end();
  }
}

/** Evenly spread members of the dense cities or of the towns: user ids by member number. */
async function measuredMembers(db: Client, places: Place[], dense: boolean): Promise<string[]> {
  const numbers = places.filter((p) => p.dense === dense).flatMap((p) => [p.first, p.first + p.size - 1]);
  const [lo, hi] = [Math.min(...numbers), Math.max(...numbers)];
  const step = Math.max(1, Math.floor((hi - lo) / MEASURED_PER_KIND));
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT ${userIdSql('n')}::text AS user_id FROM generate_series($1::int, $2::int, $3::int) AS n LIMIT $4`,
    [lo, hi, step, MEASURED_PER_KIND],
  );
  return rows.map((r) => r.user_id);
}

interface Plan {
  kind: string;
  executionMs: number[];
  planningMs: number;
  poolRows: number;
  seqScanOnCandidate: boolean;
  indexes: string[];
  text: string;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the service's own candidate query for one viewer, five times warm:
 * matching-service's `explain-pool` command runs it six times (the first warms the cache) and
 * prints the plans as a JSON line. The pool's size is the top node's actual rows.
 */
async function explain(env: Record<string, string>, kind: string, viewerId: string): Promise<Plan> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, MATCHING_MAIN), 'explain-pool', viewerId, '6'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const printed = stdout
    .split('\n')
    .filter((line) => line.startsWith('{"plans":'))
    .map((line) => JSON.parse(line) as { plans: string[] })[0];
  if (!printed) throw new Error(`explain-pool printed no plans:\n${stdout.slice(-2000)}`);
  const text = printed.plans[printed.plans.length - 1];
  return {
    kind,
    executionMs: printed.plans.slice(1).map((plan) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1])),
    planningMs: Number(/Planning Time: ([\d.]+) ms/.exec(text)?.[1]),
    poolRows: Number(/\(actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(text.split('\n')[0])?.[1]),
    seqScanOnCandidate: /Seq Scan on candidate\b/.test(text),
    indexes: [...new Set([...text.matchAll(/Index (?:Only )?Scan (?:Backward )?using (\w+)/g)].map((m) => m[1]))],
    text,
  };
}

/** A phase with the CPU each process of the path spent on it. */
type MeasuredPhase = Phase & { cpuMsPerRequest: PathCpu };

const loadText = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const cpuText = ({ gateway, matching, postgres }: PathCpu) =>
  [gateway, matching, postgres].map((ms) => (ms === null ? 'n/a' : ms.toFixed(2))).join(' / ');

function printResults(
  database: string,
  phases: MeasuredPhase[],
  likes: (MeasuredPhase & { matched: number; refused: number }) | null,
  plans: Plan[],
  pids: { gateway: number; matching: number },
): void {
  const all = likes ? [...phases, likes] : phases;
  const cells = (p: MeasuredPhase) => [p.label, p.requests, p.perSecond, p.p50, p.p95, p.p99, cpuText(p.cpuMsPerRequest), statusText(p.statuses)];
  const rows = [
    ['', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms/req gateway / matching / PostgreSQL', 'answers'],
    ...all.map(cells),
  ].map((r) => r.map(String));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = ['', line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ''];
  if (likes) out.push(`likes: ${likes.matched} of them made a match; ${likes.refused} refused`);
  out.push(
    `CPU: user + system time from /proc/<pid>/stat (10 ms ticks) of the gateway (pid ${pids.gateway}), ` +
      `matching-service (pid ${pids.matching}) and the PostgreSQL client backends of ${database} ` +
      `(${Math.max(...all.map((p) => p.cpuMsPerRequest.backends))} at most in a phase), ` +
      'per answered request; Redis and the bench client not counted',
  );
  for (const p of all) {
    const { unreadable, backendsEnded, syscallsPerRequest: calls } = p.cpuMsPerRequest;
    if (calls.gateway !== null && calls.matching !== null) {
      out.push(`${p.label}: read + write system calls per request: gateway ${calls.gateway}, matching-service ${calls.matching}`);
    }
    if (unreadable.length) out.push(`${p.label}: CPU not read for ${unreadable.join(', ')}`);
    if (backendsEnded) out.push(`${p.label}: ${backendsEnded} PostgreSQL backend(s) ended during the phase, counted to their last poll`);
  }
  for (const plan of plans) {
    out.push(
      '',
      `candidate query, ${plan.kind} viewer: execution ${median(plan.executionMs).toFixed(2)} ms median ` +
        `(${plan.executionMs.map((ms) => ms.toFixed(1)).join(', ')}), planning ${plan.planningMs.toFixed(2)} ms, ` +
        `${plan.poolRows} candidates, indexes: ${plan.indexes.join(', ')}; ` +
        (plan.seqScanOnCandidate ? '*** SEQ SCAN ON candidate ***' : 'no seq scan on candidate'),
      plan.text,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n}× ${status === '0' ? 'failed' : status}`)
    .join(', ');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { databaseUrl, redisUrl } = benchUrls();
  ensureBuilt(['gateway', 'matching-service'], [MATCHING_MAIN, GATEWAY_MAIN], opts.build);
  noteLoad();

  const run = randomBytes(4).toString('hex');
  const prefix = `bench-suggestions-${run}`;
  const jwtSecret = `bench-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: withDatabase(databaseUrl, opts.database),
    REDIS_URL: redisUrl,
    KEY_PREFIX: prefix,
    JWT_SECRET: jwtSecret,
    INTERNAL_TOKEN: `bench-internal-${randomBytes(16).toString('hex')}`,
    // No event consumer or scheduled refit competing with the measurement (the model is refitted once below).
    WORKERS: 'off',
    // The per-member limits stay in the path (one Redis call each) but never answer 429 here.
    MEMBER_RATE_LIMIT_MULTIPLIER: '1000',
  };
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const services: ServiceProcess[] = [];
  let db: Client | null = null;
  const cleanup = async () => {
    await db?.end().catch(() => undefined);
    db = null;
    for (const s of services.splice(0)) await s.stop();
    if (!opts.keep) await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${opts.database}" WITH (FORCE)`).catch(() => undefined);
    await deleteKeysAndDisconnect(redis, prefix);
  };
  cleanupOnSignal(cleanup);

  try {
    const places = placesOf(opts.members);
    if (!opts.reuse) await fill(databaseUrl, opts.database, env, places);
    const logStatements = PG_LOG_STATEMENTS ? 'SET log_min_duration_statement = 0' : 'RESET log_min_duration_statement';
    await adminQuery(databaseUrl, `ALTER DATABASE "${opts.database}" ${logStatements}`);
    // A kept database already holds its model; the likes alone do not need it refitted.
    if (!(opts.reuse && !opts.phases.includes('suggestions'))) {
      await timed('refit of the scoring model', () => runCommand(MATCHING_MAIN, 'refit', env));
    }
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const dense = await measuredMembers(db, places, true);
    const sparse = await measuredMembers(db, places, false);

    const matching = await startServiceProcess(MATCHING_MAIN, await freePort(), env, { health: '/health/ready', nodeArgs: PROFILE_ARGS });
    services.push(matching);
    const gateway = await startServiceProcess(
      GATEWAY_MAIN,
      await freePort(),
      {
        ...env,
        MATCHING_SERVICE_URL: matching.url,
        RATE_LIMIT_PER_MINUTE: '100000000',
        IP_RATE_LIMIT_MULTIPLIER: '1000',
        MAX_CONCURRENT_PER_CLIENT: '1024',
      },
      { health: '/health/ready', nodeArgs: PROFILE_ARGS },
    );
    services.push(gateway);

    const store = new SessionStore(redis, prefix);
    const tokenOf = new Map<string, string>();
    for (const userId of [...dense, ...sparse]) {
      tokenOf.set(userId, (await issueSession(store, jwtSecret, userId as `${string}-${string}-${string}-${string}-${string}`)).token);
    }
    const auth = (userId: string) => ({ authorization: `Bearer ${tokenOf.get(userId)}` });
    const suggestions = (base: string, userId: string) => request('GET', `${base}/api/matches/suggestions?limit=${PAGE}`, auth(userId));

    // Warm-up: every measured member's first page once (also the people they will like below).
    const targets = new Map<string, string[]>();
    let emptyPages = 0;
    await timed('warm-up (one page per measured member)', async () => {
      for (const userId of [...dense, ...sparse]) {
        const page = await suggestions(gateway.url, userId);
        if (page.status !== 200) throw new Error(`GET /api/matches/suggestions answered ${page.status}: ${page.body}`);
        const ids = (JSON.parse(page.body) as { user: { id: string } }[]).map((s) => s.user.id);
        if (ids.length === 0) emptyPages++;
        targets.set(userId, ids);
      }
    });
    if (emptyPages) log(`${emptyPages} measured member(s) had no suggestions at all`);

    const pids = { gateway: gateway.pid, matching: matching.pid };
    const cpu = new PathCpuMeter(db, opts.database, pids);
    const measured = (label: string, loop: { seconds: number; concurrency: number }, next: Parameters<typeof closedLoop>[2]) =>
      cpu.measure(() => closedLoop(label, loop, next));
    const roundRobin = (members: string[], base: string) => (i: number) => suggestions(base, members[i % members.length]);
    const phases: MeasuredPhase[] = [];
    // One client: the latency a member sees; then several at once: what queueing adds on this machine.
    for (const concurrency of opts.phases.includes('suggestions') ? [...new Set([1, opts.concurrency])] : []) {
      const loop = { seconds: opts.seconds, concurrency };
      const tag = `${concurrency} client${concurrency > 1 ? 's' : ''}`;
      log(`measuring, ${opts.seconds} s per phase, ${tag}`);
      phases.push(await measured(`gateway GET /health (baseline), ${tag}`, loop, () => request('GET', `${gateway.url}/health`)));
      phases.push(await measured(`suggestions, dense cities, ${tag}`, loop, roundRobin(dense, gateway.url)));
      phases.push(await measured(`suggestions, sparse towns, ${tag}`, loop, roundRobin(sparse, gateway.url)));
      if (concurrency === 1) {
        phases.push(await measured(`suggestions, dense, straight to the service, ${tag}`, loop, roundRobin(dense, matching.url)));
      }
    }

    // Likes: each measured member likes the people of their first page, through the gateway.
    const likePhase = async () => {
      const work = [...targets].flatMap(([userId, ids]) => ids.map((target) => ({ userId, target })));
      let matched = 0;
      let refused = 0;
      /** The first refusal of each status, to say why. */
      const refusals = new Map<number, string>();
      log(`liking: ${work.length} likes, ${opts.likeConcurrency} clients; load average ${loadText()}`);
      const phase = await measured('likes', { seconds: 600, concurrency: opts.likeConcurrency }, (i) => {
        const like = work[i];
        if (!like) return null;
        return request('POST', `${gateway.url}/api/matches/like/${like.target}`, auth(like.userId)).then((sample) => {
          if (sample.status === 200 || sample.status === 201) matched += (JSON.parse(sample.body) as { matched: boolean }).matched ? 1 : 0;
          else {
            refused++;
            if (!refusals.has(sample.status)) refusals.set(sample.status, sample.body.slice(0, 200));
          }
          return sample;
        });
      });
      log(`liked; load average ${loadText()}`);
      for (const [status, body] of refusals) log(`likes refused with ${status}, e.g. ${body}`);
      return { ...phase, label: 'likes (POST /api/matches/like/:id)', matched, refused };
    };
    const likes = opts.phases.includes('likes') ? await likePhase() : null;

    const plans = opts.phases.includes('suggestions')
      ? [await explain(env, 'dense-city', dense[0]), await explain(env, 'sparse-town', sparse[0])]
      : [];
    printResults(opts.database, phases, likes, plans, pids);

    const queryMs = Math.max(...plans.map((p) => median(p.executionMs)));
    const suggestionPhases = phases.filter((p) => p.label.startsWith('suggestions') && !p.label.includes('straight'));
    const verdicts: (readonly [string, boolean, string])[] = [
      ...suggestionPhases.flatMap((p) =>
        p.label.endsWith(', 1 client')
          ? [[`${p.label}: p95 ${p.p95} ms`, p.p95 <= TARGETS.suggestionsP95Ms, `<= ${TARGETS.suggestionsP95Ms} ms`] as const]
          : [
              [`${p.label}: p95 ${p.p95} ms`, p.p95 <= TARGETS.loadedSuggestionsP95Ms, `<= ${TARGETS.loadedSuggestionsP95Ms} ms`] as const,
              [
                `${p.label}: ${p.perSecond} req/s`,
                p.perSecond >= TARGETS.loadedSuggestionsPerSecond,
                `>= ${TARGETS.loadedSuggestionsPerSecond} req/s`,
              ] as const,
            ],
      ),
      ...(plans.length
        ? [
            [`candidate query ${queryMs.toFixed(1)} ms`, queryMs < TARGETS.candidateQueryMs, `< ${TARGETS.candidateQueryMs} ms`] as const,
            ['no seq scan on candidate', plans.every((p) => !p.seqScanOnCandidate), ''] as const,
          ]
        : []),
      ...(likes ? [[`likes ${likes.perSecond}/s`, likes.perSecond >= TARGETS.likesPerSecond, `>= ${TARGETS.likesPerSecond}/s`] as const] : []),
    ];
    process.stdout.write(
      `\n${verdicts.map(([what, met, target]) => `${met ? 'target met   ' : 'TARGET MISSED'}  ${what} ${target}`).join('\n')}\n`,
    );
    writeFileSync(
      RESULT_FILE,
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          members: opts.members,
          options: opts,
          load: os.loadavg(),
          cpus: os.cpus().length,
          phases,
          likes,
          plans: plans.map(({ text: _text, ...plan }) => plan),
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(ROOT, RESULT_FILE)}`);
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench suggestions failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
