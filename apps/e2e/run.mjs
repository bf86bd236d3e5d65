#!/usr/bin/env node
// The e2e stage of `npm test`: builds the apps, starts the whole platform on its own ports with
// fresh databases and a fresh Redis key prefix (so it never touches a running `npm start`), runs
// the API journeys (Jest) and the browser journeys (Playwright in Debian's Chromium), and tears
// everything down again.
//
// `node apps/e2e/run.mjs --compose` runs the same journeys against the platform in containers
// (docker/compose.yml + compose.host.yml, images built by `tools/scripts/containers.mjs build`):
// the same ports as a run in processes, PostgreSQL and Redis in containers of their own.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  ROOT,
  SERVICES,
  SERVICE_DATABASES,
  deletePrefixedKeys,
  dropDatabases,
  ensureDatabases,
  ensurePostgres,
  freePort,
  ensureRedis,
  log,
  nx,
  portOpen,
  run,
  startPlatform,
  withDatabase,
} from '../../tools/scripts/lib/platform.mjs';
import { startTranscriberStandIn } from '../../tools/scripts/lib/transcriber-stand-in.mjs';
import { startPlatformControl } from '../../tools/scripts/lib/platform-control.mjs';
import { startComposePlatform } from './compose-platform.mjs';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const id = randomBytes(3).toString('hex');
/** `--compose`, or E2E_PLATFORM=containers (how `.ci/run` has `npm test` use the images it built). */
const composeFlag = process.argv[2] === '--compose';
const inContainers = composeFlag || process.env.E2E_PLATFORM === 'containers';
/**
 * The ports this run prefers: clear of a running `npm start` or compose stack (1025, 1080, 3000,
 * 3101-3199, 4200, 4300), in processes and in containers alike (compose-platform.mjs moves the
 * containers' ports).
 */
const E2E_PORT_OFFSET = 850;
const preferredPorts = {
  gateway: 3950,
  web: 4250,
  adminWeb: 4350,
  smtp: 2025,
  maildevWeb: 2080,
  // Each service on its registry port moved up by E2E_PORT_OFFSET (auth-service 3101 -> 3951).
  services: Object.fromEntries(SERVICES.map((s) => [s.name, s.port + E2E_PORT_OFFSET])),
  // In containers, PostgreSQL and Redis beside the host's own servers.
  ...(inContainers ? { postgres: 55432, redis: 56379 } : {}),
};
/**
 * This run's ports: each preferred one unless something on the machine already listens there (a
 * platform left running, another run, any server at all), then one the system hands out as free.
 * The apps learn every port from this run (the builds' VITE_* values, the containers' PUBLIC_*
 * page settings, every service URL), so none is fixed.
 */
async function portsOfThisRun(preferred) {
  const taken = new Set();
  const pick = async (name, port) => {
    let chosen = port;
    if (taken.has(chosen) || (await portOpen(chosen))) {
      do chosen = await freePort();
      while (taken.has(chosen));
      log(`e2e: ${name}'s port ${port} is in use on this machine; this run takes ${chosen}`);
    }
    taken.add(chosen);
    return chosen;
  };
  const { services, ...apps } = preferred;
  const ports = {};
  for (const [name, port] of Object.entries(apps)) ports[name] = await pick(name, port);
  ports.services = {};
  for (const [name, port] of Object.entries(services)) ports.services[name] = await pick(name, port);
  return ports;
}
const ports = await portsOfThisRun(preferredPorts);
/** compose.yml's database names (docker/postgres/create-databases.sh): mate_<db>. */
const dbNames = Object.fromEntries(SERVICE_DATABASES.map((db) => [db, inContainers ? `mate_${db}` : `mate_e2e_${id}_${db}`]));
/** compose.yml's services use the key prefix `mate`. */
const keyPrefix = inContainers ? 'mate' : `e2e-${id}`;
const photoDir = path.join(ROOT, 'dist/e2e', `uploads-${id}`);
const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
/**
 * The apps' origins. In containers the apps find the gateway on their page's own host name, and
 * the browser's socket client (engine.io) hears the browser's `offline` event for every host but
 * `localhost`: the chat journey's lost network is noticed at once on 127.0.0.1, as it is for a
 * member on a real host, and only after the heartbeat's 45 s on `localhost`.
 */
const appHost = inContainers ? '127.0.0.1' : 'localhost';
const webUrl = `http://${appHost}:${ports.web}`;
const adminWebUrl = `http://${appHost}:${ports.adminWeb}`;
/** The address auth-service makes an admin once it is verified (ADMIN_EMAILS), for the admin journeys. */
const adminEmail = `admin-${id}@e2e.mate.test`;
/**
 * `node apps/e2e/run.mjs <playwright test args>` (a journey's file name, say) runs only those browser
 * journeys; `node apps/e2e/run.mjs --api <pattern...>` runs only the API journeys whose path matches
 * (Jest's testPathPattern, `safety` say), and no browser journey.
 */
const args = process.argv.slice(composeFlag ? 3 : 2);
/**
 * Runs a test runner to its end without blocking this process: the transcriber stand-in answers
 * from here while the journeys run. Resolves with the exit status.
 */
const runTests = (command, commandArgs, env) =>
  new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: ROOT, stdio: 'inherit', env });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
/** A fresh VAPID key pair (web-push's own generator), for this run only. */
function vapidKeysOfThisRun() {
  const { publicKey, privateKey } = createRequire(import.meta.url)('web-push').generateVAPIDKeys();
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey };
}
const onlyApi = args[0] === '--api' ? args.slice(1) : null;
/** `--lighthouse-only`: no journey, only the web audit (tools/bench/web), which a full run does after the journeys. */
const lighthouseOnly = args[0] === '--lighthouse-only';
const onlyJourneys = onlyApi || lighthouseOnly ? [] : args;

/**
 * Runs the API journeys and then the browser journeys against this run's platform (wherever it
 * runs: processes or containers); resolves with the failures.
 */
async function runJourneys({ control, transcriber, databaseUrl, redisUrl }) {
  const env = {
    ...process.env,
    E2E_PLATFORM_CONTROL_URL: control.url,
    E2E_PLATFORM_CONTROL_SECRET: control.secret,
    // Where the member-data verify command looks (`npm run gdpr -- verify`): this run's databases,
    // Redis prefix and photo folder.
    E2E_DATABASES: JSON.stringify(Object.fromEntries(Object.entries(dbNames).map(([db, name]) => [db, withDatabase(databaseUrl, name)]))),
    E2E_REDIS_URL: redisUrl,
    E2E_KEY_PREFIX: keyPrefix,
    E2E_PHOTO_DIR: photoDir,
    E2E_GATEWAY_URL: gatewayUrl,
    E2E_MAILDEV_URL: `http://127.0.0.1:${ports.maildevWeb}`,
    E2E_WEB_URL: webUrl,
    E2E_ADMIN_WEB_URL: adminWebUrl,
    E2E_ADMIN_EMAIL: adminEmail,
    E2E_TRANSCRIBER_URL: transcriber.url,
    CHROMIUM_PATH: CHROMIUM,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };
  let failures = 0;
  if (onlyJourneys.length === 0 && !lighthouseOnly) {
    log('e2e: API journeys through the gateway');
    const api = await runTests(path.join(ROOT, 'node_modules/.bin/jest'), ['-c', 'apps/e2e/jest.config.cjs', '--ci', ...(onlyApi ?? [])], env);
    if (api !== 0) failures++;
  }
  if (!onlyApi && !lighthouseOnly) {
    log('e2e: browser journeys in Chromium');
    const browser = await runTests(path.join(ROOT, 'node_modules/.bin/playwright'), ['test', '-c', 'apps/e2e/playwright.config.ts', ...onlyJourneys], env);
    if (browser !== 0) failures++;
  }
  if (args.length === 0 || lighthouseOnly) {
    // Issue 26: byte budgets, compression, accessibility and best practices of every screen, enforced; scores and LCP printed.
    log('e2e: Lighthouse over the member and admin screens (tools/bench/web)');
    const { runWebCheck } = await import('../../tools/bench/web/check.mjs');
    const webCheck = { gatewayUrl, maildevUrl: env.E2E_MAILDEV_URL, webUrl, adminWebUrl, authDbUrl: withDatabase(databaseUrl, dbNames.auth), redisUrl, keyPrefix, chromePath: CHROMIUM };
    failures += await runWebCheck(webCheck).then(
      (missed) => (missed ? 1 : 0),
      (e) => (process.stderr.write(`e2e: the web audit failed: ${e.stack ?? e}\n`), 1),
    );
  } else {
    log('e2e: the Lighthouse web audit runs with the whole stage or --lighthouse-only, not with a journey filter');
  }
  return failures;
}

/**
 * The journeys against the platform in containers. The images (MATE_REGISTRY/MATE_TAG, and
 * POSTGRES_IMAGE, REDIS_IMAGE, MAILDEV_IMAGE) must exist: `node tools/scripts/containers.mjs build`.
 * Resolves with the exit code.
 */
async function runAgainstContainers() {
  const postgresPassword = randomBytes(12).toString('hex');
  const databaseUrl = `postgres://mate:${postgresPassword}@127.0.0.1:${ports.postgres}/mate`;
  let platform = null;
  let transcriber = null;
  let control = null;
  let failures = 0;
  try {
    // The admin journey makes its admin with auth-service's own grant-admin command, run here
    // against the containers' auth database.
    nx(['run', 'auth-service:build']);
    transcriber = await startTranscriberStandIn();
    log('e2e: starting the platform in containers (docker compose)');
    platform = await startComposePlatform({
      project: `mate-e2e-${id}`,
      photoDir,
      logDir: path.join(ROOT, 'dist/e2e/logs'),
      ports,
      settings: {
        JWT_SECRET: randomBytes(24).toString('hex'),
        INTERNAL_TOKEN: randomBytes(24).toString('hex'),
        POSTGRES_PASSWORD: postgresPassword,
        POSTGRES_PORT: String(ports.postgres),
        REDIS_PORT: String(ports.redis),
        IP_RATE_LIMIT_MULTIPLIER: '100',
        ADMIN_EMAILS: adminEmail,
        OUTBOX_POLL_MS: '100',
        LOG_LEVEL: 'warn',
        TRANSCRIBE_URL: transcriber.url,
        WEB_URL: webUrl,
        ADMIN_WEB_URL: adminWebUrl,
        CORS_ORIGINS: `${webUrl},${adminWebUrl}`,
        // The web apps' images know only the default local ports: they are told this run's.
        PUBLIC_API_ORIGIN: gatewayUrl,
        PUBLIC_WEB_URL: webUrl,
        PUBLIC_ADMIN_WEB_URL: adminWebUrl,
        ...vapidKeysOfThisRun(),
      },
    });
    control = await startPlatformControl(platform);
    failures += await runJourneys({ control, transcriber, databaseUrl, redisUrl: `redis://127.0.0.1:${ports.redis}` });
  } catch (e) {
    process.stderr.write(`e2e: ${e.stack ?? e}\n`);
    failures++;
  } finally {
    await control?.close();
    await platform?.stop().catch((e) => process.stderr.write(`e2e: ${e.message}\n`));
    await transcriber?.close();
    rmSync(photoDir, { recursive: true, force: true });
  }
  if (failures) {
    process.stderr.write('e2e: FAILED against the containers (their output is in dist/e2e/logs/compose.log)\n');
    return 1;
  }
  log('e2e: all journeys passed against the containers');
  return 0;
}

if (!existsSync(CHROMIUM)) {
  process.stderr.write(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium\n`);
  process.exit(1);
}

if (inContainers) {
  process.exit(await runAgainstContainers());
}

await ensurePostgres(DATABASE_URL);
await ensureRedis(REDIS_URL);
log('e2e: building the services, the web app and the admin app');
nx(['run-many', '-t', 'build', '-p', 'gateway', ...SERVICES.map((s) => s.name)]);
if (!onlyApi) {
  run(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'apps/web/vite.config.mts', '--outDir', path.join(ROOT, 'dist/e2e/web'), '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_API_URL: gatewayUrl, VITE_ADMIN_WEB_URL: adminWebUrl },
  });
  // The admin app on its own origin, calling this run's gateway and sending members to this run's web app.
  run(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'apps/admin-web/vite.config.mts', '--outDir', path.join(ROOT, 'dist/e2e/admin-web'), '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_API_URL: gatewayUrl, VITE_MEMBER_WEB_URL: webUrl },
  });
}

await ensureDatabases(DATABASE_URL, Object.values(dbNames));
let platform = null;
let transcriber = null;
let control = null;
let failed = 0;
try {
  // call-service transcribes subtitle audio through an outside backend; the journeys get a
  // stand-in for it (the call journey reads its subtitle; in the others the button just shows).
  transcriber = await startTranscriberStandIn();
  log('e2e: starting the platform');
  platform = await startPlatform({
    ports,
    dbNames,
    databaseUrl: DATABASE_URL,
    redisUrl: REDIS_URL,
    keyPrefix,
    // The API journeys alone need no web app.
    webDir: onlyApi ? null : 'dist/e2e/web',
    adminWebDir: onlyApi ? null : 'dist/e2e/admin-web',
    logDir: path.join(ROOT, 'dist/e2e/logs'),
    extraEnv: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(24).toString('hex'),
      // Not the development default: proves the gateway hands every service the deployment's own.
      INTERNAL_TOKEN: randomBytes(24).toString('hex'),
      IP_RATE_LIMIT_MULTIPLIER: '100',
      ADMIN_EMAILS: adminEmail,
      OUTBOX_POLL_MS: '100',
      TRANSCRIBE_URL: transcriber.url,
      // This run's own photo folder: the member-data check looks for files no photo row owns.
      PHOTO_DIR: photoDir,
    },
    // Web push on, with a key pair of this run (the member-data journey subscribes a device).
    serviceEnv: { 'notification-service': vapidKeysOfThisRun() },
  });
  control = await startPlatformControl(platform);
  failed += await runJourneys({ control, transcriber, databaseUrl: DATABASE_URL, redisUrl: REDIS_URL });
} catch (e) {
  process.stderr.write(`e2e: ${e.stack ?? e}\n`);
  failed++;
} finally {
  await control?.close();
  await platform?.stop();
  await transcriber?.close();
  rmSync(photoDir, { recursive: true, force: true });
  await dropDatabases(DATABASE_URL, Object.values(dbNames)).catch(() => undefined);
  await deletePrefixedKeys(REDIS_URL, keyPrefix);
}
if (failed) {
  process.stderr.write('e2e: FAILED (service logs are in dist/e2e/logs)\n');
  process.exit(1);
}
log('e2e: all journeys passed');
