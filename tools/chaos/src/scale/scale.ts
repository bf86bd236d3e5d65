import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { WORKSPACE } from '@mate/server-kit/testing';
import { startScaleTopology, type ScaleTopology } from './topology';

/**
 * `npm run scale`: the whole platform in the topology of issue 29 on this machine (tools/chaos/src/
 * scale/topology.ts), with `npm start`'s demo population, until Ctrl+C. The public entry points on
 * their own ports (clear of `npm start`'s): the gateway's load balancer on 5000, the member app on
 * 5200, the admin app on 5300, maildev on 5080 (SMTP 5025); a taken port is replaced by a free one,
 * and what was used is printed.
 */

const PREFERRED = { gateway: 5000, web: 5200, adminWeb: 5300, maildevWeb: 5080, smtp: 5025 };

/** The demo accounts and the seeding hooks of `npm start` (plain ESM, loaded at run time). */
interface Hooks {
  seedIfEmpty(o: { databaseUrl: string }): Promise<boolean>;
  backfillConsumers(o: { databases: Record<string, string>; redisUrl: string; keyPrefix: string }): Promise<{ republished: boolean; profilesOnly?: boolean }>;
  refitScoringModel(o: { databaseUrl: string; redisUrl: string; keyPrefix: string }): Promise<unknown>;
  backfillSafetyPairs(o: { matchingDbUrl: string; safetyDbUrl: string }): Promise<unknown>;
  backfillCallMatches(o: { matchingDbUrl: string; callDbUrl: string }): Promise<unknown>;
  backfillAnalytics(o: Record<string, string>): Promise<unknown>;
}
interface Demo {
  createDemoAccounts(o: Record<string, string>): Promise<void>;
  DEMO_ACCOUNTS: { member: { email: string; password: string }; admin: { email: string; password: string } };
}

const importEsm = (file: string) => import(path.join(WORKSPACE, file)) as Promise<unknown>;

/** The web apps built to call this topology's gateway (dist/scale/web, dist/scale/admin-web). */
function buildWebApps(gatewayUrl: string, adminWebUrl: string): { web: string; adminWeb: string } {
  const out = { web: path.join(WORKSPACE, 'dist/scale/web'), adminWeb: path.join(WORKSPACE, 'dist/scale/admin-web') };
  for (const [config, dir] of [
    ['apps/web/vite.config.mts', out.web],
    ['apps/admin-web/vite.config.mts', out.adminWeb],
  ] as const) {
    const r = spawnSync(path.join(WORKSPACE, 'node_modules/.bin/vite'), ['build', '--config', config, '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WORKSPACE,
      stdio: 'inherit',
      env: { ...process.env, VITE_API_URL: gatewayUrl, VITE_ADMIN_WEB_URL: adminWebUrl },
    });
    if (r.status !== 0) throw new Error(`building ${config} failed`);
  }
  return out;
}

/** `npm start`'s demo population and accounts, on the topology. */
export async function seedDemo(t: ScaleTopology, log: (line: string) => void): Promise<Demo['DEMO_ACCOUNTS']> {
  const hooks = (await importEsm('tools/seed/hook.mjs')) as Hooks;
  const demo = (await importEsm('tools/scripts/lib/demo.mjs')) as Demo;
  // The seeder and the services' own commands run as child processes: they find the topology's
  // Redis (REDIS_CLUSTER_NODES) and photo folder in this environment.
  Object.assign(process.env, t.redisEnv, { PHOTO_DIR: t.photoDir });
  const redisUrl = 'redis://127.0.0.1:6379';
  log('seeding the demo population (1,000 members)...');
  await hooks.seedIfEmpty({ databaseUrl: t.database.directUrl('postgres') });
  const db = t.databases;
  const backfill = await hooks.backfillConsumers({ databases: db, redisUrl, keyPrefix: t.keyPrefix });
  if (backfill.republished && !backfill.profilesOnly) {
    await hooks.refitScoringModel({ databaseUrl: db['matching-service'], redisUrl, keyPrefix: t.keyPrefix });
  }
  await hooks.backfillSafetyPairs({ matchingDbUrl: db['matching-service'], safetyDbUrl: db['safety-service'] });
  await hooks.backfillCallMatches({ matchingDbUrl: db['matching-service'], callDbUrl: db['call-service'] });
  await hooks.backfillAnalytics({
    adminDbUrl: db['admin-service'],
    authDbUrl: db['auth-service'],
    profileDbUrl: db['profile-service'],
    matchingDbUrl: db['matching-service'],
    chatDbUrl: db['chat-service'],
  });
  await demo.createDemoAccounts({
    gatewayUrl: t.gatewayUrl,
    maildevUrl: t.maildevUrl,
    authDbUrl: db['auth-service'],
    matchingDbUrl: db['matching-service'],
    chatDbUrl: db['chat-service'],
    safetyDbUrl: db['safety-service'],
    callDbUrl: db['call-service'],
    adminDbUrl: db['admin-service'],
  });
  return demo.DEMO_ACCOUNTS;
}

export async function runScale(log: (line: string) => void): Promise<never> {
  const demo = (await importEsm('tools/scripts/lib/demo.mjs')) as Demo;
  // The web apps are built for the preferred ports; a run that must take other ones says so.
  const gatewayUrl = `http://localhost:${PREFERRED.gateway}`;
  const adminWebUrl = `http://localhost:${PREFERRED.adminWeb}`;
  log('building the web app and the admin app for this topology...');
  const webDirs = buildWebApps(gatewayUrl, adminWebUrl);
  const topology = await startScaleTopology({
    ports: PREFERRED,
    webDirs,
    extraEnv: { ADMIN_EMAILS: demo.DEMO_ACCOUNTS.admin.email, IP_RATE_LIMIT_MULTIPLIER: '10' },
    keyPrefix: 'mate',
    log,
  });
  const stop = async () => {
    log('stopping...');
    await topology.stop();
    process.exit(0);
  };
  // Ctrl+C stops the topology in order (each process by its pid, the PostgreSQL clusters shut
  // down, their folders removed) instead of the kit's last-resort kill of every child.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void stop());
  }
  if (!topology.gatewayUrl.endsWith(`:${PREFERRED.gateway}`)) {
    log(`port ${PREFERRED.gateway} was taken: the gateway is at ${topology.gatewayUrl}, and the web apps (built for ${PREFERRED.gateway}) will not reach it`);
  }
  const accounts = await seedDemo(topology, log);
  const r = topology.redis.nodes;
  const pg = topology.database;
  process.stdout.write(`
  Mate is running in the scaled topology.

    Member app     ${topology.webUrl}
    Admin app      ${topology.adminWebUrl}   (sign in as the demo admin)
    API gateway    ${topology.gatewayUrl}   (HAProxy over 2 gateways; health: /health)
    Mail catcher   ${topology.maildevUrl}

    Demo member    ${accounts.member.email} / ${accounts.member.password}
    Demo admin     ${accounts.admin.email} / ${accounts.admin.password}

    Redis Cluster  ${r.map((n) => `${n.port} (${n.role})`).join(', ')}
    PostgreSQL     primary :${pg.servers.primaryPort} via PgBouncer :${pg.primaryPool.port}; replica :${pg.servers.replicaPort} via PgBouncer :${pg.replicaPool.port}
    Services       2 replicas each behind HAProxy
    Stop           Ctrl+C
`);
  return new Promise<never>(() => undefined);
}
