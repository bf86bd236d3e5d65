import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEPLOYED_SERVICES, serviceDatabaseName } from '@mate/contracts';
import { freePort, startRedisCluster, type OwnRedisCluster } from '@mate/testing';
import { answers, builtMain, runNode, startManaged, waitFor, WORKSPACE, type ManagedProcess } from '@mate/server-kit/testing';
import { startHaproxy, type BalancedTier, type Haproxy } from './haproxy';
import { startDatabaseTier, type DatabaseTier } from './database-tier';

/**
 * The whole platform in the topology of issue 29, on this machine, from the built apps: a Redis
 * Cluster (3 masters, 3 replicas: redis-server processes), a PostgreSQL primary with a streaming
 * replica (two local clusters) behind PgBouncer (transaction pooling), `REPLICAS` replicas of the
 * gateway and of every service behind HAProxy (sticky for socket.io's long-polling), maildev, and
 * optionally the two web apps. Everything on its own ports (free ones; the public ones preferred
 * when free), nothing shared with `npm start` or the tests' servers.
 */

export const REPLICAS = 2;

/** A fault target: a service replica (`matching-service#1`), a gateway replica (`gateway#2`), a Redis master, the PostgreSQL replica. */
export type ScaleTarget = string;

export interface ScaleTopology {
  id: string;
  keyPrefix: string;
  jwtSecret: string;
  /** The gateway's load balancer: what members and the web apps call. */
  gatewayUrl: string;
  maildevUrl: string;
  webUrl: string | null;
  adminWebUrl: string | null;
  /** The environment that reaches this topology's Redis (REDIS_CLUSTER_NODES, KEY_PREFIX), for a command run beside it. */
  redisEnv: Record<string, string>;
  redis: OwnRedisCluster;
  database: DatabaseTier;
  /** Each service's database on the primary, direct (not pooled): for checks and commands. */
  databases: Record<string, string>;
  photoDir: string;
  /** Every replica process of the services and the gateway. */
  processes(): ManagedProcess[];
  /** The replicas of a service or of the gateway. */
  replicasOf(name: string): ManagedProcess[];
  /** Kills a target like a crash and resolves once it has exited. */
  kill(target: ScaleTarget): Promise<void>;
  /** Starts a killed target again (a Redis master comes back as a replica of its promoted one) and resolves once it serves. */
  start(target: ScaleTarget): Promise<void>;
  /** Whether every replica answers its health check and both load-balanced entry points answer. */
  allReady(): Promise<boolean>;
  /** Stops a whole service (every replica), and starts it again: the e2e runner's platform control. */
  stopService(name: string): Promise<void>;
  startService(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ScaleOptions {
  /** Preferred public ports (used when free): the gateway, the web apps, maildev's web and SMTP. */
  ports?: Partial<Record<'gateway' | 'web' | 'adminWeb' | 'maildevWeb' | 'smtp', number>>;
  /** Builds of the web apps to serve (dist folders made with this run's VITE_API_URL), or none. */
  webDirs?: { web: string; adminWeb: string } | null;
  /** Extra environment for every process (ADMIN_EMAILS, secrets). */
  extraEnv?: Record<string, string>;
  logDir?: string;
  keyPrefix?: string;
  log?: (line: string) => void;
}


/** The preferred port if nothing listens there, else a free one. */
async function portOf(preferred: number | undefined, taken: Set<number>): Promise<number> {
  if (preferred && !taken.has(preferred) && !(await answersTcp(preferred))) {
    taken.add(preferred);
    return preferred;
  }
  let port: number;
  do port = await freePort();
  while (taken.has(port));
  taken.add(port);
  return port;
}

async function answersTcp(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` (the kit's waitFor) until it holds. */
const until = (check: () => Promise<boolean>, what: string, timeoutMs: number) =>
  waitFor(check, { timeoutMs, intervalMs: 100, what }).then(() => undefined);

export async function startScaleTopology(options: ScaleOptions = {}): Promise<ScaleTopology> {
  const log = options.log ?? (() => undefined);
  const id = randomBytes(3).toString('hex');
  const keyPrefix = options.keyPrefix ?? `scale-${id}`;
  const jwtSecret = options.extraEnv?.['JWT_SECRET'] ?? randomBytes(32).toString('hex');
  const internalToken = options.extraEnv?.['INTERNAL_TOKEN'] ?? randomBytes(32).toString('hex');
  const logDir = options.logDir ?? path.join(WORKSPACE, 'dist/scale', `logs-${id}`);
  mkdirSync(logDir, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), `mate-scale-${id}-`));
  const photoDir = path.join(dir, 'photos');
  mkdirSync(photoDir);
  const started: { stop(): Promise<void> }[] = [];
  let redis: OwnRedisCluster | null = null;
  let database: DatabaseTier | null = null;
  let haproxy: Haproxy | null = null;
  const cleanup = async () => {
    await haproxy?.stop().catch(() => undefined);
    for (const p of [...started].reverse()) await p.stop().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const taken = new Set<number>();
    const ports = {
      gateway: await portOf(options.ports?.gateway, taken),
      web: await portOf(options.ports?.web, taken),
      adminWeb: await portOf(options.ports?.adminWeb, taken),
      maildevWeb: await portOf(options.ports?.maildevWeb, taken),
      smtp: await portOf(options.ports?.smtp, taken),
      monitor: await portOf(undefined, taken),
    };

    log('starting the Redis Cluster (3 masters, 3 replicas) and PostgreSQL (primary, streaming replica, PgBouncer)...');
    const [cluster, data] = await Promise.all([
      startRedisCluster(),
      startDatabaseTier({ databases: DEPLOYED_SERVICES.flatMap((s) => (s.database ? [serviceDatabaseName(s) as string] : [])), log }),
    ]);
    redis = cluster;
    database = data;
    const redisEnv = { REDIS_CLUSTER_NODES: cluster.seeds, KEY_PREFIX: keyPrefix };

    const maildev = await startManaged({
      name: 'maildev',
      args: [path.join(WORKSPACE, 'node_modules/maildev/bin/maildev'), '--smtp', String(ports.smtp), '--web', String(ports.maildevWeb), '--ip', '127.0.0.1', '--silent'],
      env: {},
      port: ports.maildevWeb,
      health: '/email',
      logDir,
    });
    started.push(maildev);

    // Each service's load-balanced frontend, and its replicas' own ports.
    const frontends = new Map<string, number>();
    for (const svc of DEPLOYED_SERVICES) frontends.set(svc.name, await portOf(undefined, taken));
    const replicaPorts = new Map<string, number[]>();
    for (const name of [...DEPLOYED_SERVICES.map((s) => s.name), 'gateway']) {
      const list: number[] = [];
      for (let i = 0; i < REPLICAS; i++) list.push(await portOf(undefined, taken));
      replicaPorts.set(name, list);
    }
    const serviceUrls = Object.fromEntries(DEPLOYED_SERVICES.map((s) => [s.urlVariable, `http://127.0.0.1:${frontends.get(s.name)}`]));
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const webUrl = options.webDirs ? `http://localhost:${ports.web}` : null;
    const adminWebUrl = options.webDirs ? `http://localhost:${ports.adminWeb}` : null;
    const common: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...redisEnv,
      JWT_SECRET: jwtSecret,
      INTERNAL_TOKEN: internalToken,
      WEB_URL: webUrl ?? 'http://localhost:4200',
      ...(adminWebUrl ? { ADMIN_WEB_URL: adminWebUrl } : {}),
      OUTBOX_POLL_MS: '100',
      PHOTO_DIR: photoDir,
      SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
      ...serviceUrls,
      ...options.extraEnv,
    };

    // Web push on, with a key pair of this topology (the private key for notification-service alone).
    const keys = webpush.generateVAPIDKeys();
    const vapid = { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };

    // Migrations on the primary, directly (DDL and its locks are no business of a transaction pooler).
    const toMigrate = DEPLOYED_SERVICES.filter((s) => s.database);
    await Promise.all(
      [0, 1].map(async (lane) => {
        for (const svc of toMigrate.filter((_, i) => i % 2 === lane)) {
          await runNode([builtMain(svc.name), 'migrate'], { ...common, DATABASE_URL: data.directUrl(serviceDatabaseName(svc) as string) });
        }
      }),
    );
    log(`migrated ${toMigrate.length} databases on the primary`);

    const replicas = new Map<string, ManagedProcess[]>();
    const launch = (name: string, env: Record<string, string>, health: string) =>
      Promise.all(
        (replicaPorts.get(name) as number[]).map((port, i) =>
          startManaged({ name: `${name}#${i + 1}`, args: [builtMain(name)], env: { ...env, HOST: '127.0.0.1' }, port, health, logDir }).then((p) => {
            started.push(p);
            return p;
          }),
        ),
      );
    for (const svc of DEPLOYED_SERVICES) {
      const db = serviceDatabaseName(svc);
      const env = { ...common, ...(db ? data.serviceEnv(db) : {}), ...(svc.name === 'notification-service' ? vapid : {}) };
      replicas.set(svc.name, await launch(svc.name, env, '/health/ready'));
    }
    const tiers: BalancedTier[] = [
      ...DEPLOYED_SERVICES.map((svc) => ({
        name: svc.name,
        port: frontends.get(svc.name) as number,
        replicas: (replicas.get(svc.name) as ManagedProcess[]).map((p, i) => ({ name: `r${i + 1}`, port: p.port })),
        health: '/health/ready',
      })),
      {
        name: 'gateway',
        port: ports.gateway,
        replicas: (replicaPorts.get('gateway') as number[]).map((port, i) => ({ name: `g${i + 1}`, port })),
        health: '/health',
        sticky: true,
        forwardFor: true,
      },
    ];
    haproxy = await startHaproxy(tiers, { dir, monitorPort: ports.monitor, logDir });
    const origins = [webUrl, adminWebUrl].filter((u): u is string => !!u);
    const gatewayEnv = {
      ...common,
      SOCKET_ACK_TIMEOUT_MS: '5000',
      // HAProxy in front, as the ingress is in Kubernetes (k8s/base: TRUST_PROXY 1): the client's
      // address is the one it appended to X-Forwarded-For.
      TRUST_PROXY: '1',
      ...(origins.length ? { CORS_ORIGINS: origins.flatMap((o) => [o, o.replace('localhost', '127.0.0.1')]).join(',') } : {}),
    };
    replicas.set('gateway', await launch('gateway', gatewayEnv, '/health'));
    await until(() => answers(`${gatewayUrl}/health`), "the gateway's load balancer answering", 30_000);

    if (options.webDirs) {
      for (const [name, webDir, port] of [
        ['web', options.webDirs.web, ports.web],
        ['admin-web', options.webDirs.adminWeb, ports.adminWeb],
      ] as const) {
        const p = await startManaged({ name, args: [path.join(WORKSPACE, 'tools/web-server/server.mjs'), webDir], env: { PORT: String(port) }, port, health: '/health', logDir });
        started.push(p);
      }
    }
    log(`platform up: ${REPLICAS} replicas of the gateway and of ${DEPLOYED_SERVICES.length} services behind HAProxy; logs in ${path.relative(WORKSPACE, logDir)}`);

    const all = () => [...replicas.values()].flat();
    const processOf = (target: string): ManagedProcess => {
      const p = all().find((x) => x.name === target);
      if (!p) throw new Error(`${target} is not a process of the topology`);
      return p;
    };
    const allReady = async () => {
      const checks = await Promise.all([
        ...all().map((p) => answers(`${p.url}${p.name.startsWith('gateway#') ? '/health' : '/health/ready'}`)),
        answers(`${gatewayUrl}/health`),
        // Each service through its load balancer too: HAProxy has a replica in service.
        ...[...frontends.values()].map((port) => answers(`http://127.0.0.1:${port}/health/ready`)),
      ]);
      return checks.every(Boolean);
    };
    await until(allReady, 'every replica and every load balancer ready', 90_000);
    const ownRedis = cluster;
    const ownData = data;
    return {
      id,
      keyPrefix,
      jwtSecret,
      gatewayUrl,
      maildevUrl: `http://127.0.0.1:${ports.maildevWeb}`,
      webUrl,
      adminWebUrl,
      redisEnv,
      redis: ownRedis,
      database: ownData,
      databases: Object.fromEntries(toMigrate.map((s) => [s.name, ownData.directUrl(serviceDatabaseName(s) as string)])),
      photoDir,
      processes: all,
      replicasOf: (name) => replicas.get(name) ?? [],
      async kill(target) {
        if (target === 'redis-master') {
          const master = ownRedis.nodes.find((n) => n.alive && n.role === 'master');
          if (!master) throw new Error('no live Redis master');
          return ownRedis.kill(master.port);
        }
        if (target === 'postgres-replica') return ownData.killReplica();
        return processOf(target).kill();
      },
      async start(target) {
        // A killed master is not started again: its replica, promoted, serves its slots, and the
        // fault is over once the cluster says so (a node restarted later would rejoin as a replica).
        if (target === 'redis-master') return ownRedis.waitUntilHealthy(60_000);
        // The replica stays down: the services read from the primary meanwhile, and the fault is
        // over once every replica of every service says ready (none depends on the read replica).
        if (target === 'postgres-replica') return until(allReady, 'every process ready without the PostgreSQL replica', 60_000);
        await processOf(target).start();
      },
      allReady,
      async stopService(name) {
        await Promise.all((replicas.get(name) ?? []).map((p) => p.stop()));
      },
      async startService(name) {
        await Promise.all((replicas.get(name) ?? []).map((p) => p.start()));
      },
      stop: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
