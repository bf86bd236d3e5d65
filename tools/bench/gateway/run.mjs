#!/usr/bin/env node
// Gateway overhead benchmark (not a test): GET /api/auth/me with a bearer token, first straight
// to auth-service, then through the gateway, with autocannon. Loopback only, bounded duration.
//
//   npm run bench:gateway -- [--duration 10] [--connections 20] [--rounds 1] [--build] [--compare <main.js>]
//
// --rounds N repeats the direct/gateway pair N times and reports medians (the ratio is the median
// of the per-round ratios): use it on a machine that is busy with other work.
// --compare <path to another build's gateway main.js> runs that gateway too (same auth-service,
// same token), measured in the same rounds, its order against this one alternating: an A/B of two
// gateway builds under the same outside load.
// Each measurement reads the CPU time the gateway and auth-service used from /proc: µs per request.
// BENCH_CPU_PROFILE_DIR=<dir>: the gateway(s) and auth-service write V8 CPU profiles there (on exit).
//
// Needs the local PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// and Redis (REDIS_URL, default redis://127.0.0.1:6379). Creates and drops its own database and
// deletes its own Redis keys. See tools/bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { deletePrefixedKeys, dropDatabases, ensureDatabases, freePort, withDatabase } from '../../scripts/lib/platform.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// BENCH_RESULT_FILE: where the smoke runs of `npm test` write (tools/bench/lib/run.ts resultFile).
const RESULT_FILE = process.env.BENCH_RESULT_FILE || path.join(ROOT, 'tools/bench/gateway/last-result.json');
// The preferred ports, or ones the system hands out when something already listens there (the
// smoke run in `npm test` shares the machine with other suites).
let GATEWAY_PORT = 3900;
let AUTH_PORT = 3901;
const TARGET_RATIO = 0.8;
const WARMUP_SECONDS = 2;
const MAX_DURATION = 300;
const MAX_CONNECTIONS = 1000;
const MAX_ROUNDS = 10;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const opts = { duration: 10, connections: 20, rounds: 1, build: false, compare: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--duration') opts.duration = Number(value());
    else if (flag === '--connections') opts.connections = Number(value());
    else if (flag === '--rounds') opts.rounds = Number(value());
    else if (flag === '--build') opts.build = true;
    else if (flag === '--compare') opts.compare = path.resolve(value());
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write('Usage: npm run bench:gateway -- [--duration <s>=10] [--connections <n>=20] [--rounds <n>=1] [--build] [--compare <gateway main.js>]\n');
      process.exit(0);
    } else {
      throw new Error(`Unknown argument: ${argv[i]}`);
    }
  }
  if (!Number.isInteger(opts.duration) || opts.duration < 1 || opts.duration > MAX_DURATION) {
    throw new Error(`--duration must be a whole number of seconds between 1 and ${MAX_DURATION}`);
  }
  if (!Number.isInteger(opts.connections) || opts.connections < 1 || opts.connections > MAX_CONNECTIONS) {
    throw new Error(`--connections must be a whole number between 1 and ${MAX_CONNECTIONS}`);
  }
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1 || opts.rounds > MAX_ROUNDS) {
    throw new Error(`--rounds must be a whole number between 1 and ${MAX_ROUNDS}`);
  }
  if (opts.compare && !existsSync(opts.compare)) throw new Error(`--compare: no file ${opts.compare}`);
  return opts;
}

// ---------------------------------------------------------------- build

const BUILT = ['dist/apps/gateway/main.js', 'dist/apps/auth-service/main.js'];
const SOURCES = ['apps/gateway/src', 'apps/auth-service/src', 'libs/server-kit/src', 'libs/contracts/src'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.name.endsWith('.ts') && !/\.(spec|integration-spec)\.ts$/.test(entry.name)) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

function ensureBuilt(force) {
  const missing = BUILT.filter((f) => !existsSync(path.join(ROOT, f)));
  let reason = force ? '--build given' : missing.length ? `missing ${missing.join(', ')}` : '';
  if (!reason) {
    const builtAt = Math.min(...BUILT.map((f) => statSync(path.join(ROOT, f)).mtimeMs));
    const sourcesAt = Math.max(...SOURCES.map((d) => newestMtime(path.join(ROOT, d))));
    if (sourcesAt > builtAt) reason = 'sources changed since the last build';
  }
  if (!reason) return;
  log(`building gateway and auth-service (${reason})`);
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '-p', 'gateway', 'auth-service'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
  });
  if (r.status !== 0) throw new Error('build failed');
}

// ---------------------------------------------------------------- infrastructure

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const children = new Set();

function startNode(name, args, env) {
  // A profiled child must exit through process.exit to write its profile: Nest's shutdown hook
  // ends the process by re-sending the signal to itself, which would skip it.
  const profile = PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`, '--require', path.join(ROOT, 'tools/bench/gateway/exit-on-sigterm.cjs')]
    : [];
  const child = spawn(process.execPath, [...profile, ...args], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.label = name;
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  children.add(child);
  child.exited.then(() => children.delete(child));
  return child;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }, 5000);
  await child.exited;
  clearTimeout(timer);
}

async function waitReady(name, url, child, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (code ${child.exitCode}) before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${name} was not ready at ${url} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------- measuring

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; 0 when unreadable.
 * The same reading as tools/bench/lib/run.ts's processCpuMs (this bench is plain JavaScript).
 */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One row of the table: the median of each figure over the rounds (the figures themselves for one round). */
function combine(runs) {
  return {
    url: runs[0].url,
    requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
    latencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
    latencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
    latencyAvgMs: Math.round(median(runs.map((r) => r.latencyAvgMs)) * 100) / 100,
    requests: runs.reduce((n, r) => n + r.requests, 0),
    cpuUsPerRequest: Object.fromEntries(
      Object.keys(runs[0].cpuUsPerRequest).map((name) => [name, Math.round(median(runs.map((r) => r.cpuUsPerRequest[name])))]),
    ),
    ok2xx: runs.reduce((n, r) => n + r.ok2xx, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
  };
}

/** `processes`: name → pid of each process whose CPU per request is read (those on the request's path). */
async function measure(label, url, token, { duration, connections }, processes) {
  const opts = { url, connections, headers: { authorization: `Bearer ${token}` } };
  log(`${label}: warm-up ${WARMUP_SECONDS} s`);
  await cannon({ ...opts, duration: WARMUP_SECONDS });
  log(`${label}: measuring ${duration} s, ${connections} connections`);
  const cpuBefore = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, processCpuMs(pid)]));
  const r = await cannon({ ...opts, duration });
  const answered = Math.max(1, r.requests.total);
  const cpuUsPerRequest = Object.fromEntries(
    Object.entries(processes).map(([name, pid]) => [name, Math.round(((processCpuMs(pid) - cpuBefore[name]) * 1000) / answered)]),
  );
  const summary = {
    cpuUsPerRequest,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
    url,
    requestsPerSecond: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyAvgMs: Math.round(r.latency.average * 100) / 100,
    requests: r.requests.total,
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
  if (summary.non2xx || summary.errors || summary.timeouts) {
    log(`WARNING: ${label} had ${summary.non2xx} non-2xx answers, ${summary.errors} errors, ${summary.timeouts} timeouts`);
  }
  return summary;
}

/**
 * --compare: both gateways loaded at the same time (each with `connections`), so both see the same
 * outside load; only their own CPU per request is read (auth-service serves both). The fairest
 * CPU comparison of two builds on a busy machine.
 */
async function measureSideBySide(token, { duration, connections }, sides) {
  const load = (url, seconds) => cannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${token}` } });
  log(`side by side: warm-up ${WARMUP_SECONDS} s`);
  await Promise.all(sides.map((side) => load(side.url, WARMUP_SECONDS)));
  log(`side by side: measuring ${duration} s, ${connections} connections each`);
  const before = sides.map((side) => processCpuMs(side.pid));
  const results = await Promise.all(sides.map((side) => load(side.url, duration)));
  return Object.fromEntries(
    sides.map((side, i) => [
      side.name,
      {
        requestsPerSecond: Math.round(results[i].requests.average),
        gatewayCpuUsPerRequest: Math.round(((processCpuMs(side.pid) - before[i]) * 1000) / Math.max(1, results[i].requests.total)),
        non2xx: results[i].non2xx + results[i].errors,
        loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
      },
    ]),
  );
}

const cpu = (row, name) => (row.cpuUsPerRequest[name] === undefined ? '' : String(row.cpuUsPerRequest[name]));

/** `rows`: [label, combined measurement] for direct, the gateway and (with --compare) the other build. */
function printTable(rows, ratios, targetMet, rounds) {
  const table = [
    ['', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'gateway CPU µs/req', 'auth-service CPU µs/req'],
    ...rows.map(([label, m]) => [label, m.requestsPerSecond, m.latencyP50Ms, m.latencyP99Ms, m.non2xx + m.errors, cpu(m, 'gateway'), cpu(m, 'authService')]),
  ].map((r) => r.map(String));
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const ratio = ratios.gateway;
  const out = [
    '',
    rounds.length > 1 ? `GET /api/auth/me (bearer token), median of ${rounds.length} rounds` : 'GET /api/auth/me (bearer token)',
    line(table[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.slice(1).map(line),
    '',
    ...(rounds.length > 1 ? [`per-round ratios: ${rounds.map((r) => r.ratio.toFixed(3)).join(', ')}`] : []),
    ...(ratios.compare !== undefined
      ? [
          `--compare gateway / direct req/s: ${ratios.compare.toFixed(3)}${rounds.length > 1 ? ` (rounds ${rounds.map((r) => r.compareRatio.toFixed(3)).join(', ')})` : ''}`,
        ]
      : []),
    `gateway / direct req/s: ${ratio.toFixed(3)} (target >= ${TARGET_RATIO})`,
    targetMet ? 'target met' : `*** TARGET MISSED: the gateway keeps ${(ratio * 100).toFixed(1)}% of direct throughput, below ${TARGET_RATIO * 100}% ***`,
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  ensureBuilt(opts.build);

  if (!(await portIsFree(GATEWAY_PORT))) GATEWAY_PORT = await freePort();
  if (!(await portIsFree(AUTH_PORT))) AUTH_PORT = await freePort();

  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  for (const [name, url] of [['DATABASE_URL', adminUrl], ['REDIS_URL', redisUrl]]) {
    if (!LOOPBACK.has(new URL(url).hostname)) throw new Error(`${name} must point at this machine (loopback only), not ${new URL(url).hostname}`);
  }
  const id = randomBytes(4).toString('hex');
  const dbName = `mate_bench_${id}`;
  const keyPrefix = `bench-gateway-${id}`;
  const databaseUrl = withDatabase(adminUrl, dbName);
  const common = {
    ...process.env,
    NODE_ENV: 'production',
    REDIS_URL: redisUrl,
    KEY_PREFIX: keyPrefix,
    JWT_SECRET: `bench-only-secret-${randomBytes(16).toString('hex')}`,
    INTERNAL_TOKEN: `bench-only-internal-${randomBytes(16).toString('hex')}`,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };

  let dbCreated = false;
  const cleanup = async () => {
    // Let the requests autocannon left in flight finish before the services shut down.
    if (children.size) await new Promise((r) => setTimeout(r, 500));
    await Promise.allSettled([...children].map(stopChild));
    if (dbCreated) {
      await dropDatabases(adminUrl, [dbName]).then(
        () => log(`dropped database ${dbName}`),
        (e) => log(`could not drop database ${dbName}: ${e.message}`),
      );
    }
    await deletePrefixedKeys(redisUrl, keyPrefix).then(
      (n) => log(`deleted ${n} Redis keys under ${keyPrefix}:`),
      (e) => log(`could not delete Redis keys under ${keyPrefix}: ${e.message}`),
    );
  };
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await ensureDatabases(adminUrl, [dbName]);
    dbCreated = true;
    log(`created database ${dbName}`);

    const authEnv = { ...common, DATABASE_URL: databaseUrl, IP_RATE_LIMIT_MULTIPLIER: '1000' };
    const migrate = spawnSync(process.execPath, ['dist/apps/auth-service/main.js', 'migrate'], {
      cwd: ROOT,
      env: authEnv,
      stdio: 'inherit',
      timeout: 60000,
    });
    if (migrate.status !== 0) throw new Error('auth-service migrate failed');

    const auth = startNode('auth-service', ['dist/apps/auth-service/main.js'], { ...authEnv, PORT: String(AUTH_PORT) });
    const gatewayEnv = {
      ...common,
      AUTH_SERVICE_URL: `http://127.0.0.1:${AUTH_PORT}`,
      RATE_LIMIT_PER_MINUTE: '100000000',
      IP_RATE_LIMIT_MULTIPLIER: '1000',
      // Every bench connection comes from one address: the per-address cap must not refuse them.
      MAX_CONCURRENT_PER_CLIENT: String(MAX_CONNECTIONS),
    };
    const gateway = startNode('gateway', ['dist/apps/gateway/main.js'], { ...gatewayEnv, PORT: String(GATEWAY_PORT) });
    const comparePort = opts.compare ? await freePort() : null;
    const compared = opts.compare ? startNode('gateway-compare', [opts.compare], { ...gatewayEnv, PORT: String(comparePort) }) : null;
    await Promise.all([
      waitReady('auth-service', `http://127.0.0.1:${AUTH_PORT}/health/ready`, auth),
      waitReady('gateway', `http://127.0.0.1:${GATEWAY_PORT}/health/ready`, gateway),
      ...(compared ? [waitReady('--compare gateway', `http://127.0.0.1:${comparePort}/health/ready`, compared)] : []),
    ]);
    log(compared ? `the services are ready (--compare gateway ${opts.compare} on :${comparePort})` : 'both services are ready');

    const register = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-${id}@mate.test`, password: `bench password ${id}` }),
    });
    const registered = await register.json();
    if (register.status !== 201 || !registered.token) {
      throw new Error(`register through the gateway failed: ${register.status} ${JSON.stringify(registered)}`);
    }
    const token = registered.token;
    for (const [label, base] of [['direct', AUTH_PORT], ['gateway', GATEWAY_PORT], ...(compared ? [['--compare gateway', comparePort]] : [])]) {
      const me = await fetch(`http://127.0.0.1:${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      if (me.status !== 200) throw new Error(`GET /api/auth/me (${label}) answered ${me.status}: ${await me.text()}`);
    }

    const loadBefore = os.loadavg()[0];
    if (loadBefore > os.cpus().length * 0.5) {
      log(`WARNING: the machine is busy (1-min load average ${loadBefore.toFixed(2)} on ${os.cpus().length} CPUs); expect noisy numbers, consider --rounds 3`);
    }
    const rounds = [];
    for (let i = 1; i <= opts.rounds; i++) {
      const tag = opts.rounds > 1 ? ` (round ${i}/${opts.rounds})` : '';
      const direct = await measure(`direct${tag}`, `http://127.0.0.1:${AUTH_PORT}/api/auth/me`, token, opts, { authService: auth.pid });
      const throughGateway = () =>
        measure(`gateway${tag}`, `http://127.0.0.1:${GATEWAY_PORT}/api/auth/me`, token, opts, { gateway: gateway.pid, authService: auth.pid });
      const throughCompared = () =>
        measure(`--compare gateway${tag}`, `http://127.0.0.1:${comparePort}/api/auth/me`, token, opts, { gateway: compared.pid, authService: auth.pid });
      let viaGateway;
      let viaCompared;
      // With --compare the two gateways take turns at going first, so neither always follows the direct run.
      if (compared && i % 2 === 0) {
        viaCompared = await throughCompared();
        viaGateway = await throughGateway();
      } else {
        viaGateway = await throughGateway();
        if (compared) viaCompared = await throughCompared();
      }
      const sideBySide = compared
        ? await measureSideBySide(token, opts, [
            { name: 'gateway', url: `http://127.0.0.1:${GATEWAY_PORT}/api/auth/me`, pid: gateway.pid },
            { name: 'compare', url: `http://127.0.0.1:${comparePort}/api/auth/me`, pid: compared.pid },
          ])
        : null;
      const ratioTo = (m) => Math.round((direct.requestsPerSecond ? m.requestsPerSecond / direct.requestsPerSecond : 0) * 1000) / 1000;
      rounds.push({
        direct,
        gateway: viaGateway,
        ratio: ratioTo(viaGateway),
        ...(viaCompared ? { compare: viaCompared, compareRatio: ratioTo(viaCompared), sideBySide } : {}),
      });
    }
    const direct = combine(rounds.map((r) => r.direct));
    const viaGateway = combine(rounds.map((r) => r.gateway));
    const viaCompared = compared ? combine(rounds.map((r) => r.compare)) : null;
    const ratio = median(rounds.map((r) => r.ratio));
    const compareRatio = compared ? median(rounds.map((r) => r.compareRatio)) : undefined;
    const targetMet = ratio >= TARGET_RATIO;

    process.stdout.write(`\n1-min load average: ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after (${os.cpus().length} CPUs)\n`);
    if (compared) {
      const side = (name) => median(rounds.map((r) => r.sideBySide[name].gatewayCpuUsPerRequest));
      process.stdout.write(
        `side by side (both gateways loaded at once), gateway CPU µs/req, median: this build ${side('gateway')}, --compare ${side('compare')}` +
          ` (rounds: ${rounds.map((r) => `${r.sideBySide.gateway.gatewayCpuUsPerRequest}/${r.sideBySide.compare.gatewayCpuUsPerRequest}`).join(', ')})\n`,
      );
    }
    printTable(
      [
        [`direct (auth-service :${AUTH_PORT})`, direct],
        [`gateway (:${GATEWAY_PORT})`, viaGateway],
        ...(viaCompared ? [[`--compare gateway (:${comparePort})`, viaCompared]] : []),
      ],
      { gateway: ratio, compare: compareRatio },
      targetMet,
      rounds,
    );
    const result = {
      date: new Date().toISOString(),
      endpoint: 'GET /api/auth/me',
      durationSeconds: opts.duration,
      warmupSeconds: WARMUP_SECONDS,
      connections: opts.connections,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        loadAverageBefore: Math.round(loadBefore * 100) / 100,
        loadAverageAfter: Math.round(os.loadavg()[0] * 100) / 100,
      },
      direct,
      gateway: viaGateway,
      ratio: Math.round(ratio * 1000) / 1000,
      ...(viaCompared ? { compare: { main: opts.compare, ...viaCompared, ratio: Math.round(compareRatio * 1000) / 1000 } } : {}),
      target: TARGET_RATIO,
      targetMet,
      ...(rounds.length > 1 ? { rounds } : {}),
    };
    writeFileSync(RESULT_FILE, JSON.stringify(result, null, 2) + '\n');
    log(`wrote ${path.relative(ROOT, RESULT_FILE)}`);
  } finally {
    if (!interrupted) await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`[bench] failed: ${e.message}\n`);
    process.exit(1);
  },
);
