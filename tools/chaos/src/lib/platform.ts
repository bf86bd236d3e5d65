import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DEPLOYED_SERVICES, serviceDatabaseName } from '@mate/contracts';
import { freePort, startOwnRedisServer, type OwnRedisServer } from '@mate/testing';
import { answers, builtMain, runNode, startManaged, WORKSPACE, type ManagedProcess } from '@mate/server-kit/testing';

/**
 * The whole platform of one chaos or soak run, all its own: every deployed service of the registry
 * and the gateway from dist/apps, a redis-server on a free port with an append-only file (sessions,
 * queues and streams survive its kill), one fresh database per service on the local PostgreSQL
 * (`mate_chaos_<random>_<db>`, dropped by stop()), maildev for the mail the services send, free
 * ports above 20000 (clear of `npm start`'s 3000-3199/4200/4300 and the e2e's 3950+).
 */

/** What a fault can hit: a service of the registry, the gateway, or Redis (here); a replica or a store (tools/scale). */
export type Target = string;

/**
 * What a chaos run needs of a platform, whatever its topology: this one (one process per service,
 * one redis-server) or the replicated one of `npm run scale:check` (tools/scale).
 */
export interface FaultPlatform {
  id: string;
  keyPrefix: string;
  jwtSecret: string;
  /** Where members call: the gateway, or its load balancer. */
  gatewayUrl: string;
  /** What reaches the platform's Redis for a command run beside it (REDIS_URL or REDIS_CLUSTER_NODES, KEY_PREFIX). */
  redisEnv: Record<string, string>;
  /** Each service's database URL (the primary, direct), by service name. */
  databases: Record<string, string>;
  photoDir: string;
  /** Kills (SIGKILL) a target and resolves once it has exited. */
  kill(target: Target): Promise<void>;
  /** Starts a killed target again and resolves once it, and for a store every process, is ready. */
  start(target: Target): Promise<void>;
  /** Whether every process answers its health check now. */
  allReady(): Promise<boolean>;
  /** Ends everything it started and drops its databases. */
  stop(): Promise<void>;
}

export interface ChaosPlatform extends FaultPlatform {
  redis: OwnRedisServer;
  gateway: ManagedProcess;
  services: Map<string, ManagedProcess>;
  maildev: ManagedProcess;
  /** Every service and the gateway, for memory readings. */
  processes(): ManagedProcess[];
}

export interface PlatformOptions {
  /** Where each process's output goes (`<name>.log`); default dist/chaos/logs-<id>. */
  logDir?: string;
  /** Raises the per-address and per-member limits (one machine plays many members). */
  loadLimits?: boolean;
  log?: (line: string) => void;
}

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

async function admin<T>(adminUrl: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The local PostgreSQL the services reach (TEST_DATABASE_URL, DATABASE_URL, else the default of
 * `npm start`): the built processes run on this machine, so the suite does not use containers.
 */
export function postgresAdminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Limits that stop one address or one account from a script; the suite is one address playing many members. */
const LOAD_LIMITS: Record<string, string> = {
  IP_RATE_LIMIT_MULTIPLIER: '1000',
  MEMBER_RATE_LIMIT_MULTIPLIER: '1000',
  RATE_LIMIT_PER_MINUTE: '1000000',
  MAX_CONCURRENT_PER_CLIENT: '100000',
  SOCKET_EVENTS_PER_10_SECONDS: '1000000',
  SOCKET_MAX_EVENTS_IN_FLIGHT: '1000',
  SOCKET_MAX_PER_USER: '1000',
  HANDSHAKES_PER_MINUTE: '1000000',
  CHAT_MESSAGES_PER_10_SECONDS: '1000000',
  CHAT_TYPING_PER_10_SECONDS: '1000000',
  CHAT_SYNCS_PER_10_SECONDS: '1000000',
  CALL_SIGNALS_PER_10_SECONDS: '1000000',
  CALL_CALLS_PER_MINUTE: '1000000',
};

export async function startChaosPlatform(options: PlatformOptions = {}): Promise<ChaosPlatform> {
  const log = options.log ?? (() => undefined);
  const id = randomBytes(3).toString('hex');
  const keyPrefix = `chaos-${id}`;
  const jwtSecret = randomBytes(32).toString('hex');
  const internalToken = randomBytes(32).toString('hex');
  const logDir = options.logDir ?? path.join(WORKSPACE, 'dist/chaos', `logs-${id}`);
  const photoDir = mkdtempSync(path.join(tmpdir(), `mate-chaos-${id}-`));
  const adminUrl = postgresAdminUrl();
  const databases: Record<string, string> = {};
  const dbNames: string[] = [];
  const started: ManagedProcess[] = [];
  let redis: OwnRedisServer | null = null;

  const cleanup = async () => {
    for (const p of [...started].reverse()) await p.stop().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    await admin(adminUrl, async (c) => {
      for (const name of dbNames) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }).catch(() => undefined);
    rmSync(photoDir, { recursive: true, force: true });
  };

  try {
    redis = await startOwnRedisServer();
    await admin(adminUrl, async (c) => {
      for (const svc of DEPLOYED_SERVICES) {
        const db = serviceDatabaseName(svc);
        if (!db) continue;
        const name = `mate_chaos_${id}_${svc.database}`;
        await c.query(`CREATE DATABASE "${name}"`);
        dbNames.push(name);
        databases[svc.name] = withDatabase(adminUrl, name);
      }
    });

    const smtpPort = await freePort();
    const maildevPort = await freePort();
    const maildev = await startManaged({
      name: 'maildev',
      args: [
        path.join(WORKSPACE, 'node_modules/maildev/bin/maildev'),
        '--smtp', String(smtpPort), '--web', String(maildevPort), '--ip', '127.0.0.1', '--silent',
      ],
      env: {},
      port: maildevPort,
      health: '/email',
      logDir,
    });
    started.push(maildev);

    const ports = new Map<string, number>();
    for (const svc of DEPLOYED_SERVICES) ports.set(svc.name, await freePort());
    const gatewayPort = await freePort();
    const serviceUrls = Object.fromEntries(DEPLOYED_SERVICES.map((s) => [s.urlVariable, `http://127.0.0.1:${ports.get(s.name)}`]));
    const common: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_URL: redis.url,
      KEY_PREFIX: keyPrefix,
      JWT_SECRET: jwtSecret,
      INTERNAL_TOKEN: internalToken,
      WEB_URL: 'http://localhost:4200',
      OUTBOX_POLL_MS: '100',
      PHOTO_DIR: photoDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ...serviceUrls,
      ...(options.loadLimits === false ? {} : LOAD_LIMITS),
    };

    const services = new Map<string, ManagedProcess>();
    // Migrations first, two at a time (a 2-core machine); then the services start side by side.
    const toMigrate = DEPLOYED_SERVICES.filter((svc) => databases[svc.name]);
    await Promise.all(
      [0, 1].map(async (lane) => {
        for (const svc of toMigrate.filter((_, i) => i % 2 === lane)) {
          await runNode([builtMain(svc.name), 'migrate'], { ...common, DATABASE_URL: databases[svc.name] });
        }
      }),
    );
    log(`migrated ${Object.keys(databases).length} databases`);
    const launched = await Promise.all(
      DEPLOYED_SERVICES.map((svc) =>
        startManaged({
          name: svc.name,
          args: [builtMain(svc.name)],
          env: { ...common, ...(databases[svc.name] ? { DATABASE_URL: databases[svc.name] } : {}) },
          port: ports.get(svc.name) as number,
          health: '/health/ready',
          logDir,
        }).then((p) => {
          started.push(p);
          return p;
        }),
      ),
    );
    for (const p of launched) services.set(p.name, p);
    const gateway = await startManaged({
      name: 'gateway',
      args: [builtMain('gateway')],
      env: { ...common, SOCKET_ACK_TIMEOUT_MS: '5000' },
      port: gatewayPort,
      health: '/health',
      logDir,
    });
    started.push(gateway);
    log(`platform up: ${services.size} services and the gateway at ${gateway.url}, Redis at ${redis.url}; logs in ${path.relative(WORKSPACE, logDir)}`);

    const ownRedis = redis;
    const all = () => [...services.values(), gateway];
    const allReady = async () => {
      const checks = await Promise.all(
        all().map((p) => answers(`${p.url}${p.name === 'gateway' ? '/health' : '/health/ready'}`)),
      );
      return checks.every(Boolean);
    };
    return {
      id,
      keyPrefix,
      jwtSecret,
      gatewayUrl: gateway.url,
      redisEnv: { REDIS_URL: ownRedis.url, KEY_PREFIX: keyPrefix },
      redis: ownRedis,
      gateway,
      services,
      maildev,
      databases,
      photoDir,
      processes: all,
      async kill(target) {
        if (target === 'redis') return ownRedis.kill();
        return processOf(target).kill();
      },
      async start(target) {
        if (target === 'redis') {
          await ownRedis.start();
          // Redis is back once every process that needs it says ready again.
          const deadline = Date.now() + 90_000;
          while (!(await allReady())) {
            if (Date.now() > deadline) throw new Error('the platform was not ready 90 s after Redis came back');
            await new Promise((r) => setTimeout(r, 50));
          }
          return;
        }
        await processOf(target).start();
      },
      allReady,
      stop: cleanup,
    };

    function processOf(target: string): ManagedProcess {
      if (target === 'gateway') return gateway;
      const p = services.get(target);
      if (!p) throw new Error(`${target} is not a process of the platform`);
      return p;
    }
  } catch (e) {
    await cleanup();
    throw e;
  }
}
