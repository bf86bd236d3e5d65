import { randomUUID } from 'node:crypto';
import type { DynamicModule } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { ROLE_MEMBER, type Role } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import type { HttpOptions } from '../lib/bootstrap/bootstrap';
import type { BaseServiceEnv } from '../lib/config/config';
import { SessionStore } from '../lib/auth/session-store';
import { call, issueSession, startService, type RunningService, type TestEnv } from './service-app';

/** The JWT secret every test bed signs its sessions with, unless the test sets JWT_SECRET. */
export const TEST_JWT_SECRET = 'service-test-bed-jwt-secret';

/** The settings a service gets on a test bed before the test's own (quiet, fast relay). */
const TEST_BED_ENV: TestEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  OUTBOX_POLL_MS: '50',
  JWT_SECRET: TEST_JWT_SECRET,
};

export interface ServiceTestBedOptions {
  /** Names the database and the Redis key prefix (letters, digits, `_`). */
  label: string;
  /** Settings on top of the test bed's (DATABASE_URL, REDIS_URL, KEY_PREFIX are filled in). */
  env?: TestEnv;
  /** Providers to replace, e.g. `{ provide: CLOCK, useValue: clock }`. */
  overrides?: { provide: unknown; useValue: unknown }[];
  http?: HttpOptions | ((env: BaseServiceEnv) => HttpOptions);
  /**
   * Where the database is made and how the service reaches it (through PgBouncer, with a replica:
   * database-topology.ts); a fresh database on the test server, reached directly, by default.
   */
  database?: TestDatabaseSource;
}

/** Makes a service's test database and says how the service reaches it. */
export interface TestDatabaseSource {
  create(label: string): Promise<TestDatabase>;
  /** DATABASE_URL and what goes with it (DATABASE_POOLING, DATABASE_READ_URL). */
  env(db: TestDatabase): TestEnv;
}

export interface SignedIn {
  userId: string;
  sessionId: string;
  token: string;
  authorization: string;
}

export interface ServiceTestBed {
  app: NestExpressApplication;
  url: string;
  /** The settings the service runs with. */
  env: TestEnv;
  db: TestDatabase;
  dataSource: DataSource;
  /** A live session and its bearer token, as auth-service would issue them (of a verified account unless `verified: false`). */
  signIn(userId?: string, role?: Role, options?: { verified?: boolean }): Promise<SignedIn>;
  /** JSON over HTTP to this service. */
  call<T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof call>[3]): ReturnType<typeof call<T>>;
  /** Stops the service, deletes its Redis keys and drops its database. */
  close(): Promise<void>;
}

/**
 * One way to run a service in a test: a fresh database and Redis key prefix from @mate/testing,
 * the service's migrations, the service on a free port exactly as main.ts configures it, and a
 * close that leaves nothing behind. A service's test needs a few lines:
 *
 *   const bed = await startServiceTestBed((env) => AppModule.forRoot(env), { label: 'profile' });
 *   const { token } = await bed.signIn();
 *   const res = await bed.call('GET', '/api/profile/me', { token });
 */
export async function startServiceTestBed(
  module: (env: TestEnv) => DynamicModule,
  { label, env: extraEnv = {}, overrides = [], http = {}, database }: ServiceTestBedOptions,
): Promise<ServiceTestBed> {
  const [db, redis] = await Promise.all([
    database ? database.create(label) : createTestDatabase(label),
    createTestRedisNamespace(label),
  ]);
  const env: TestEnv = {
    ...TEST_BED_ENV,
    DATABASE_URL: db.url,
    ...database?.env(db),
    REDIS_URL: redis.url,
    KEY_PREFIX: redis.prefix,
    ...extraEnv,
  };
  let svc: RunningService;
  try {
    svc = await startService(module, env, http, { overrides });
  } catch (e) {
    await Promise.allSettled([redis.cleanup(), db.drop()]);
    throw e;
  }
  const sessions = svc.app.get(SessionStore);
  return {
    app: svc.app,
    url: svc.url,
    env,
    db,
    dataSource: svc.app.get(DataSource),
    signIn: (userId = randomUUID(), role = ROLE_MEMBER, options = {}) =>
      issueSession(sessions, env.JWT_SECRET, userId as ReturnType<typeof randomUUID>, role, options),
    call: (method, path, options) => call(svc.url, method, path, options),
    async close() {
      try {
        await svc.close();
      } finally {
        await redis.cleanup();
        await db.drop();
      }
    },
  };
}
