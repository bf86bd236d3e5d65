import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';
import {
  containerEngineConfigured,
  containerPolicy,
  containerRuntime,
  containersStarted,
  missingImage,
  RUN_CONTAINERS_VARIABLE,
  runContainersNote,
  startContainerInfra,
  type ContainerInfra,
} from './test-containers';

/**
 * Real PostgreSQL and Redis for tests (never in-memory stand-ins). With `TESTCONTAINERS=on`, or by
 * default (`auto`) whenever a container engine answers, they run in containers (test-containers.ts:
 * images from TESTCONTAINERS_POSTGRES_IMAGE / TESTCONTAINERS_REDIS_IMAGE, one pair per test
 * process); with `TESTCONTAINERS=off` or no engine, the local servers named by TEST_DATABASE_URL /
 * DATABASE_URL and TEST_REDIS_URL / REDIS_URL are used. Each suite gets a fresh database and its
 * own Redis key prefix, so suites can run side by side (docs/adr/0021).
 */
export interface TestInfra {
  postgresAdminUrl: string;
  redisUrl: string;
  source: 'testcontainers' | 'local';
  /** The PostgreSQL and Redis containers' ids (none for the local servers). */
  containerIds: string[];
  /** Removes this process's containers (a later testInfra() starts new ones); nothing for local servers. */
  stop(): Promise<void>;
}

let infraPromise: Promise<TestInfra> | null = null;

/** Whether the suite runs on containers; rejects when they are required (`on`) but no engine answers. */
async function useContainers(): Promise<boolean> {
  const policy = containerPolicy();
  if (policy === 'off') return false;
  if (policy === 'on') return true;
  if (containersStarted()) return true;
  if (!containerEngineConfigured()) return false;
  const client = await containerRuntime().catch(() => null);
  if (!client) return false;
  // An engine that cannot have the images (no registry answers, none made locally) is no reason to
  // fail every suite in auto mode; `on` fails instead, when the container does not start.
  const missing = await missingImage(client);
  if (missing) process.stderr.write(`test infrastructure: the local servers, although an engine answers: ${missing}\n`);
  return !missing;
}

function localInfra(): TestInfra {
  return {
    postgresAdminUrl:
      process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    source: 'local',
    containerIds: [],
    async stop() {
      /* the local servers outlive the tests */
    },
  };
}

/**
 * One JSON line per test file's infrastructure, appended to TEST_INFRA_REPORT when set: the
 * testcontainers CI stage reads it to prove where the suites ran.
 */
function report(entry: Record<string, unknown>) {
  const file = process.env.TEST_INFRA_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

async function startInfra(): Promise<TestInfra> {
  if (!(await useContainers())) {
    report({ source: 'local' });
    return localInfra();
  }
  const containers = await startContainerInfra().catch((error: Error) => {
    throw new Error(
      `test infrastructure: containers could not be started: ${error.message} ` +
        '(images: TESTCONTAINERS_POSTGRES_IMAGE, TESTCONTAINERS_REDIS_IMAGE; TESTCONTAINERS=off uses the local servers)',
    );
  });
  report({
    source: 'testcontainers',
    reused: containers.reused,
    networkMode: containers.networkMode,
    containers: containers.containerIds,
  });
  return {
    postgresAdminUrl: containers.postgresAdminUrl,
    redisUrl: containers.redisUrl,
    source: 'testcontainers',
    containerIds: containers.containerIds,
    async stop() {
      infraPromise = null;
      await containers.stop();
    },
  };
}

let runContainers: ContainerInfra | null = null;

/**
 * For a Jest global setup (jest-global-setup.ts): when the suites are to run on containers, starts
 * one pair for the whole run, before any test file, and hands it to the test processes; each of
 * them would otherwise start its own pair, inside its first suite's beforeAll.
 */
export async function startRunContainers(): Promise<void> {
  if (!(await useContainers())) return;
  runContainers = await startContainerInfra();
  process.env[RUN_CONTAINERS_VARIABLE] = runContainersNote(runContainers);
  report({ source: 'testcontainers', scope: 'run', networkMode: runContainers.networkMode, containers: runContainers.containerIds });
}

/** For a Jest global teardown: removes the run's containers (the reaper would, once Jest exits). */
export async function stopRunContainers(): Promise<void> {
  await runContainers?.stop();
  runContainers = null;
}

export function testInfra(): Promise<TestInfra> {
  infraPromise ??= startInfra();
  return infraPromise;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A new, empty database on the test server; drop() removes it. */
export async function createTestDatabase(label = 'suite'): Promise<TestDatabase> {
  const infra = await testInfra();
  return createDatabaseOn(infra.postgresAdminUrl, label);
}

/**
 * A new, empty database on the server of `adminUrl` (a server the test started itself, e.g.
 * startPostgresPrimaryAndReplica's primary); drop() removes it.
 */
export async function createDatabaseOn(adminUrl: string, label = 'suite'): Promise<TestDatabase> {
  const name = `mate_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A key prefix no other suite uses, and a cleanup that deletes its keys. */
export async function createTestRedisNamespace(label = 'suite') {
  const infra = await testInfra();
  const prefix = `test-${label}-${randomBytes(4).toString('hex')}`;
  return {
    url: infra.redisUrl,
    prefix,
    async cleanup() {
      const redis = new Redis(infra.redisUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        await redis.quit();
      }
    },
  };
}
