import { randomUUID } from 'node:crypto';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ROLE_MEMBER, type EventEnvelope, type EventName, type EventPayloads, type Role, type ServiceName } from '@mate/contracts';
import { Test } from '@nestjs/testing';
import { configureHttp, installFinalErrorHandler, runMigrations, type HttpOptions } from '../lib/bootstrap/bootstrap';
import { SERVICE_ENV, type BaseServiceEnv } from '../lib/config/config';
import { SessionStore } from '../lib/auth/session-store';

export type TestEnv = Record<string, string>;

/** Applies a service's migrations the way `main.js migrate` does: no workers, no relay. */
export async function migrateService(module: (env: TestEnv) => DynamicModule, env: TestEnv): Promise<void> {
  const ctx = await NestFactory.createApplicationContext(module({ ...env, WORKERS: 'off', OUTBOX_RELAY: 'off' }), {
    logger: false,
    abortOnError: false,
  });
  try {
    await runMigrations(ctx);
  } finally {
    await ctx.close();
  }
}

export interface RunningService {
  app: NestExpressApplication;
  url: string;
  close(): Promise<void>;
}

/** Starts a service in this process on a free port, exactly as main.ts would configure it. */
export async function startService(
  module: (env: TestEnv) => DynamicModule,
  env: TestEnv,
  http: HttpOptions | ((env: BaseServiceEnv) => HttpOptions) = {},
  {
    migrate = true,
    overrides = [],
  }: { migrate?: boolean; overrides?: { provide: unknown; useValue: unknown }[] } = {},
): Promise<RunningService> {
  if (migrate) await migrateService(module, env);
  let builder = Test.createTestingModule({ imports: [module(env)] });
  for (const o of overrides) builder = builder.overrideProvider(o.provide).useValue(o.useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bufferLogs: true, bodyParser: false });
  configureHttp(app, typeof http === 'function' ? http(app.get<BaseServiceEnv>(SERVICE_ENV)) : http);
  await app.init();
  installFinalErrorHandler(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, url, close: () => app.close() };
}

/**
 * A live session and its bearer token, as auth-service would issue them: of a verified account
 * unless `verified: false` (which most routes then refuse, 403 EMAIL_NOT_VERIFIED).
 */
export async function issueSession(
  store: SessionStore,
  jwtSecret: string,
  userId = randomUUID(),
  role: Role = ROLE_MEMBER,
  { verified = true }: { verified?: boolean } = {},
) {
  const sessionId = randomUUID();
  await store.create(sessionId, userId, role, verified);
  const token = new JwtService({ secret: jwtSecret }).sign({ sub: userId, sid: sessionId, role }, { algorithm: 'HS256', expiresIn: '1h' });
  return { userId, sessionId, token, authorization: `Bearer ${token}` };
}

export function eventEnvelope<N extends EventName>(producer: ServiceName, name: N, payload: EventPayloads[N]): EventEnvelope<N> {
  return { id: randomUUID(), name, version: 1, producer, occurredAt: new Date().toISOString(), payload };
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  { timeoutMs = 15000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** JSON over fetch, returning status and parsed body. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  { body, token, headers = {}, raw }: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
