#!/usr/bin/env node
// `npm start`: the whole platform on this machine, for a newcomer on a fresh clone.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
if (!existsSync(path.join(ROOT, 'node_modules/.bin/nx'))) {
  process.stdout.write('[mate] installing dependencies (npm install)...\n');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const platform = await import('./lib/platform.mjs');
const { log, ensurePostgres, ensureRedis, ensureDatabases, nx, startPlatform, SERVICES, SERVICE_DATABASES } = platform;
const { createDemoAccounts, DEMO_ACCOUNTS } = await import('./lib/demo.mjs');
const { npmStartSecrets } = await import('./lib/dev-secrets.mjs');

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ports = {
  gateway: 3000,
  web: 4200,
  adminWeb: platform.ADMIN_WEB_PORT,
  smtp: 1025,
  maildevWeb: 1080,
  services: Object.fromEntries(SERVICES.map((s) => [s.name, s.port])),
};

let running = null;
const owned = [];
async function shutdown(code = 0) {
  log('stopping...');
  await running?.stop();
  for (const o of owned) await o?.stop?.();
  for (const o of owned) if (o?.kill) o.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  const pg = await ensurePostgres(DATABASE_URL);
  if (pg.started) owned.push(pg.started);
  const redis = await ensureRedis(REDIS_URL);
  if (redis.started) owned.push(redis.started);

  for (const port of [ports.gateway, ports.web, ports.adminWeb, ...Object.values(ports.services)]) {
    if (await platform.portOpen(port)) {
      throw new Error(`port ${port} is already in use (is Mate already running?). Stop that process first.`);
    }
  }

  log('building the services, the web app and the admin app...');
  nx(['run-many', '-t', 'build', '-p', 'gateway', ...SERVICES.map((s) => s.name), 'web', 'admin-web']);

  const dbNames = Object.fromEntries(SERVICE_DATABASES.map((db) => [db, `mate_${db}`]));
  await ensureDatabases(DATABASE_URL, Object.values(dbNames));

  // The JWT secret, the internal credential and the web push (VAPID) pair: made on the first
  // start, kept in .data/secrets (never printed); a variable set in the environment wins.
  const secrets = npmStartSecrets(path.join(ROOT, '.data'));
  if (secrets.created.length) log(`made ${secrets.created.join(', ')} for this machine, kept in .data/secrets/`);

  log('starting maildev, the services, the gateway, the web app and the admin app...');
  running = await startPlatform({
    ports,
    dbNames,
    databaseUrl: DATABASE_URL,
    redisUrl: REDIS_URL,
    keyPrefix: process.env.KEY_PREFIX ?? 'mate',
    webDir: 'dist/apps/web',
    adminWebDir: 'dist/apps/admin-web',
    logDir: path.join(ROOT, '.data/logs'),
    extraEnv: {
      ADMIN_EMAILS: [process.env.ADMIN_EMAILS, DEMO_ACCOUNTS.admin.email].filter(Boolean).join(','),
      ...secrets.extraEnv,
    },
    serviceEnv: secrets.serviceEnv,
  });
  const seeding = await import('../seed/hook.mjs');
  const databases = Object.fromEntries(
    SERVICES.filter((s) => s.db).map((s) => [s.name, platform.withDatabase(DATABASE_URL, dbNames[s.db])]),
  );
  const keyPrefix = process.env.KEY_PREFIX ?? 'mate';
  // The seeder writes members, photos and the swipe history straight into the tables (the services
  // are up and migrated); it publishes no events.
  await seeding.seedIfEmpty({ databaseUrl: DATABASE_URL });
  // So the producers republish and every consumer (matching-service's candidates too) holds the members.
  const backfill = await seeding.backfillConsumers({ databases, redisUrl: REDIS_URL, keyPrefix });
  // On the start that backfilled them, the scoring model learns from the seeded history at once
  // (not when only a newly deployed consumer of profile.updated was filled).
  if (backfill.republished && !backfill.profilesOnly) {
    await seeding.refitScoringModel({ databaseUrl: databases['matching-service'], redisUrl: REDIS_URL, keyPrefix });
  }
  // safety-service learns matches from match.created, which seeded matches never had: the seeder
  // writes their pair rows, and an installation seeded before that gets them from matching's table.
  await seeding.backfillSafetyPairs({ matchingDbUrl: databases['matching-service'], safetyDbUrl: databases['safety-service'] });
  // call-service too: a pair may call only while call-service knows one of its matches is live.
  await seeding.backfillCallMatches({ matchingDbUrl: databases['matching-service'], callDbUrl: databases['call-service'] });
  // admin-service's analytics history: an installation seeded before issue 13 gets it once from the other databases.
  await seeding.backfillAnalytics({
    adminDbUrl: databases['admin-service'],
    authDbUrl: databases['auth-service'],
    profileDbUrl: databases['profile-service'],
    matchingDbUrl: databases['matching-service'],
    chatDbUrl: databases['chat-service'],
  });

  await createDemoAccounts({
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    maildevUrl: `http://127.0.0.1:${ports.maildevWeb}`,
    authDbUrl: databases['auth-service'],
    matchingDbUrl: databases['matching-service'],
    chatDbUrl: databases['chat-service'],
    safetyDbUrl: databases['safety-service'],
    callDbUrl: databases['call-service'],
    adminDbUrl: databases['admin-service'],
  });

  process.stdout.write(`
  Mate is running.

    Member app     http://localhost:${ports.web}
    Admin app      http://localhost:${ports.adminWeb}   (sign in as the demo admin)
    API gateway    http://localhost:${ports.gateway}   (health: /health)
    API docs       http://localhost:${ports.gateway}/api/docs
    Mail catcher   http://localhost:${ports.maildevWeb}   (SMTP on ${ports.smtp}; every email the platform sends lands here)

    Demo member    ${DEMO_ACCOUNTS.member.email} / ${DEMO_ACCOUNTS.member.password}
    Demo admin     ${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}

    Logs           .data/logs/<service>.log
    Stop           Ctrl+C
`);
} catch (e) {
  process.stderr.write(`\n[mate] could not start: ${e.message}\n`);
  await shutdown(1);
}
