import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';

/**
 * Real PostgreSQL and Redis for tests (never in-memory stand-ins). When a container engine
 * answers, testcontainers starts throwaway servers; otherwise the local servers named by
 * TEST_DATABASE_URL / DATABASE_URL and TEST_REDIS_URL / REDIS_URL are used. Each suite gets a
 * fresh database and its own Redis key prefix, so suites can run side by side.
 */
export interface TestInfra {
  postgresAdminUrl: string;
  redisUrl: string;
  source: 'testcontainers' | 'local';
  stop(): Promise<void>;
}

let infraPromise: Promise<TestInfra> | null = null;

/**
 * Whether testcontainers could find a container engine at all: the places its strategies look
 * (DOCKER_HOST, ~/.testcontainers.properties, the Docker sockets). Where there is none, loading
 * testcontainers to hear so costs ~0.8 s per test file (each one loads it afresh), several seconds
 * on a busy machine, and it is spent inside the suite's beforeAll.
 */
function containerEngineConfigured(): boolean {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return true;
  if (process.env.DOCKER_HOST) return true;
  const home = homedir();
  const places = [
    join(home, '.testcontainers.properties'),
    '/var/run/docker.sock',
    ...(process.env.XDG_RUNTIME_DIR ? [join(process.env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
    join(home, '.docker', 'run', 'docker.sock'),
    join(home, '.docker', 'desktop', 'docker.sock'),
    join('/run', 'user', String(userInfo().uid), 'docker.sock'),
  ];
  return places.some((place) => existsSync(place));
}

async function containerEngineAvailable(): Promise<boolean> {
  if (process.env.TESTCONTAINERS === 'off') return false;
  if (!containerEngineConfigured()) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startInfra(): Promise<TestInfra> {
  if (await containerEngineAvailable()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { RedisContainer } = await import('@testcontainers/redis');
    const [pg, redis] = await Promise.all([
      new PostgreSqlContainer('postgres:16-alpine').start(),
      new RedisContainer('redis:7-alpine').start(),
    ]);
    return {
      postgresAdminUrl: pg.getConnectionUri(),
      redisUrl: redis.getConnectionUrl(),
      source: 'testcontainers',
      async stop() {
        await Promise.all([pg.stop(), redis.stop()]);
      },
    };
  }
  return {
    postgresAdminUrl:
      process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    source: 'local',
    async stop() {
      /* the local servers outlive the tests */
    },
  };
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
  const name = `mate_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: infra.postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(infra.postgresAdminUrl, name),
    async drop() {
      const c = new Client({ connectionString: infra.postgresAdminUrl });
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
