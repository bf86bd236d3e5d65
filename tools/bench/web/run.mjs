#!/usr/bin/env node
// The web audit (issue 26), standalone: builds the member and admin apps (and the services), starts
// the platform on its own ports with fresh databases and a key prefix, makes the audit's accounts
// through the API, runs Lighthouse 12.2.3 over every screen (tools/bench/web/audit.mjs) and prints
// the issue's table beside the baseline (tools/bench/web/baseline.json). Tears everything down.
//
//   npm run bench:web                      # 3 runs per screen, medians
//   npm run bench:web -- --runs 1 --no-build
//   npm run bench:web -- --screens /discover,/profile   # only these (names as in the table)
//   npm run bench:web -- --serve           # the same platform and accounts, kept up (no audit) until
//                                          # Ctrl-C: to profile a screen by hand (URLs and sign-ins printed)
//   npm run bench:web -- --baseline <worktree> --commit <sha>
//       measures the apps already built into <worktree>/dist-bench-web/{web,admin-web}, served by
//       that worktree's own tools/scripts/serve-static.mjs, and writes baseline.json
//
// Needs the local PostgreSQL and Redis (DATABASE_URL, REDIS_URL) and Chromium (CHROMIUM_PATH,
// default /usr/bin/chromium). Ports: gateway 3700, services 3601-3608, web 4150, admin 4160,
// SMTP 2026, maildev 2081. See tools/bench/README.md, "Web".
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ROOT,
  SERVICES,
  SERVICE_DATABASES,
  deletePrefixedKeys,
  dropDatabases,
  ensureDatabases,
  ensurePostgres,
  ensureRedis,
  log,
  nx,
  run,
  startPlatform,
  startProcess,
  stopAll,
  waitForHttp,
  withDatabase,
} from '../../scripts/lib/platform.mjs';
import { prepareAuditAccounts } from './accounts.mjs';
import { SCREENS, auditScreens } from './audit.mjs';
import { budgetFailures, formatResults } from './budgets.mjs';

const HERE = path.join(ROOT, 'tools/bench/web');
const BASELINE_FILE = path.join(HERE, 'baseline.json');
const RESULT_FILE = path.join(HERE, 'last-result.json');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Clear of `npm start` (3000, 3101-3108, 4200, 4300), the e2e stage (3950-4049, 4250, 4350) and the other benches (3900, 3901). */
const PORT_OFFSET = 500;
const ports = {
  gateway: 3700,
  web: 4150,
  adminWeb: 4160,
  smtp: 2026,
  maildevWeb: 2081,
  services: Object.fromEntries(SERVICES.map((s) => [s.name, s.port + PORT_OFFSET])),
};
const MAX_RUNS = 9;

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'no-build': { type: 'boolean', default: false },
    screens: { type: 'string' },
    serve: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    commit: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opts.help) {
  process.stdout.write('Usage: npm run bench:web -- [--runs <n>=3] [--no-build] [--screens <name,...>] [--serve] [--baseline <worktree> --commit <sha>]\n');
  process.exit(0);
}
const runs = Number(opts.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > MAX_RUNS) throw new Error(`--runs must be a whole number from 1 to ${MAX_RUNS}`);
if (opts.baseline && !opts.commit) throw new Error('--baseline needs --commit <the worktree commit>');
const screens = opts.screens ? opts.screens.split(',').map((name) => SCREENS.find((s) => s.name === name.trim()) ?? name) : SCREENS;
const unknownScreens = screens.filter((s) => typeof s === 'string');
if (unknownScreens.length) throw new Error(`unknown screens: ${unknownScreens.join(', ')} (known: ${SCREENS.map((s) => s.name).join(', ')})`);

const id = randomBytes(3).toString('hex');
const dbNames = Object.fromEntries(SERVICE_DATABASES.map((db) => [db, `mate_benchweb_${id}_${db}`]));
const keyPrefix = `benchweb-${id}`;
const workDir = path.join(ROOT, 'dist/bench-web');
const photoDir = path.join(workDir, `uploads-${id}`);
const logDir = path.join(workDir, 'logs');
const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
const webUrl = `http://localhost:${ports.web}`;
const adminWebUrl = `http://localhost:${ports.adminWeb}`;

/**
 * The apps as production runs them: each calls its own origin (`VITE_API_URL=/api`), whose server
 * forwards /api and /socket.io to the gateway, as the ingress does in Kubernetes
 * (k8s/base/web/ingress.yaml) — no CORS preflight before each first call.
 */
function buildApps(root, outDir) {
  const vite = path.join(ROOT, 'node_modules/.bin/vite');
  const build = (config, dir, env) =>
    run(vite, ['build', '--config', config, '--outDir', path.join(outDir, dir), '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, env: { ...process.env, ...env } });
  build('apps/web/vite.config.mts', 'web', { VITE_API_URL: '/api', VITE_ADMIN_WEB_URL: adminWebUrl });
  build('apps/admin-web/vite.config.mts', 'admin-web', { VITE_API_URL: '/api', VITE_MEMBER_WEB_URL: webUrl });
}

async function main() {
  await ensurePostgres(DATABASE_URL);
  await ensureRedis(REDIS_URL);
  if (!opts['no-build']) {
    log('bench:web: building the services');
    nx(['run-many', '-t', 'build', '-p', 'gateway', ...SERVICES.map((s) => s.name), '--output-style=static']);
  }
  const baselineRoot = opts.baseline ? path.resolve(opts.baseline) : null;
  const appsDir = baselineRoot ? path.join(baselineRoot, 'dist-bench-web') : path.join(workDir, 'apps');
  if (!opts['no-build']) {
    log(`bench:web: building the web and admin apps${baselineRoot ? ` of ${baselineRoot}` : ''}`);
    buildApps(baselineRoot ?? ROOT, appsDir);
  }
  await ensureDatabases(DATABASE_URL, Object.values(dbNames));
  let platform = null;
  const servers = [];
  let cleaning = null;
  /** Everything this run made goes, once: at the end, or on Ctrl-C / SIGTERM. */
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await stopAll(servers);
      await platform?.stop();
      rmSync(photoDir, { recursive: true, force: true });
      await dropDatabases(DATABASE_URL, Object.values(dbNames)).catch(() => undefined);
      await deletePrefixedKeys(REDIS_URL, keyPrefix);
    })());
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`bench:web: ${signal}, cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    log('bench:web: starting the platform');
    platform = await startPlatform({
      ports,
      dbNames,
      databaseUrl: DATABASE_URL,
      redisUrl: REDIS_URL,
      keyPrefix,
      // The baseline's apps are served by the baseline's own server, below.
      webDir: baselineRoot ? null : path.join(appsDir, 'web'),
      adminWebDir: baselineRoot ? null : path.join(appsDir, 'admin-web'),
      sameOriginApi: true,
      logDir,
      extraEnv: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        JWT_SECRET: randomBytes(24).toString('hex'),
        INTERNAL_TOKEN: randomBytes(24).toString('hex'),
        IP_RATE_LIMIT_MULTIPLIER: '100',
        OUTBOX_POLL_MS: '100',
        PHOTO_DIR: photoDir,
      },
    });
    if (baselineRoot) {
      for (const [name, dir, port] of [
        ['web', 'web', ports.web],
        ['admin-web', 'admin-web', ports.adminWeb],
      ]) {
        const server = startProcess(`baseline-${name}`, process.execPath, [path.join(baselineRoot, 'tools/scripts/serve-static.mjs'), path.join(appsDir, dir)], { PORT: String(port), API_PROXY_URL: gatewayUrl }, { logDir });
        servers.push(server);
        await waitForHttp(`http://127.0.0.1:${port}/health`, { child: server });
      }
    }
    log('bench:web: making the audit accounts through the API');
    const accounts = await prepareAuditAccounts({
      gatewayUrl,
      maildevUrl: `http://127.0.0.1:${ports.maildevWeb}`,
      authDbUrl: withDatabase(DATABASE_URL, dbNames.auth),
      redisUrl: REDIS_URL,
      keyPrefix,
    });
    if (opts.serve) {
      log(`bench:web: serving the member app on ${webUrl} (${accounts.member.email} / ${accounts.member.password}, chat with ${accounts.chatWith})`);
      log(`bench:web: and the admin app on ${adminWebUrl} (${accounts.admin.email} / ${accounts.admin.password}); Ctrl-C ends it`);
      await new Promise(() => undefined);
    }
    log(`bench:web: Lighthouse, ${runs} run(s) per screen (load average ${os.loadavg()[0].toFixed(1)})`);
    const results = await auditScreens({ webUrl, adminWebUrl, ...accounts, runs, screens, chromePath: CHROMIUM, log });
    const measured = {
      commit: opts.commit ?? gitHead(),
      date: new Date().toISOString(),
      method: `npm run bench:web -- --runs ${runs}${baselineRoot ? ' --baseline' : ''}: Lighthouse 12.2.3, medians of ${runs} first visit(s) per screen`,
      loadAverage: os.loadavg()[0],
      results,
    };
    if (baselineRoot) {
      writeFileSync(BASELINE_FILE, `${JSON.stringify({ ...measured, method: `${measured.method}; the apps of ${opts.commit} built with vite and served by that commit's tools/scripts/serve-static.mjs, against this tree's platform` }, null, 2)}\n`);
      log(`bench:web: baseline written to ${path.relative(ROOT, BASELINE_FILE)}`);
    }
    writeFileSync(RESULT_FILE, `${JSON.stringify(measured, null, 2)}\n`);
    const baseline = baselineRoot ? null : readBaseline();
    process.stdout.write(`\n${formatResults(results, baseline)}\n\n`);
    const failures = budgetFailures(results);
    for (const f of failures) process.stdout.write(`BUDGET MISSED  ${f}\n`);
    if (failures.length === 0) process.stdout.write('every budget met\n');
  } finally {
    await cleanUp();
  }
}

function readBaseline() {
  try {
    return JSON.parse(readFileSync(BASELINE_FILE, 'utf8'));
  } catch {
    return null;
  }
}

function gitHead() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  return `${head.stdout.trim() || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`;
}

await main();
