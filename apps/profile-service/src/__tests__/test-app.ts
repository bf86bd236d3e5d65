import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  ROLE_MEMBER,
  SERVICES,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
} from '@mate/contracts';
import { createHttpApp, runMigrations, SessionStore } from '@mate/server-kit';
import { AppModule } from '../app.module';

export type TestEnv = Record<string, string>;

/** Applies the migrations the way `main.js migrate` does: no workers, no relay. */
export async function migrate(env: TestEnv): Promise<void> {
  const ctx = await NestFactory.createApplicationContext(
    AppModule.forRoot({ ...env, WORKERS: 'off', OUTBOX_RELAY: 'off' }),
    { logger: false },
  );
  try {
    await runMigrations(ctx);
  } finally {
    await ctx.close();
  }
}

export async function startProfileService(env: TestEnv): Promise<NestExpressApplication> {
  await migrate(env);
  return createHttpApp(AppModule.forRoot(env));
}

/** A live session in Redis and its bearer token, as auth-service would issue them. */
export async function signIn(app: NestExpressApplication, jwtSecret: string, userId: string) {
  const sessionId = randomUUID();
  await app.get(SessionStore).create(sessionId, userId, ROLE_MEMBER);
  const token = new JwtService({ secret: jwtSecret }).sign(
    { sub: userId, sid: sessionId, role: ROLE_MEMBER },
    { algorithm: 'HS256', expiresIn: '1h' },
  );
  return { sessionId, token, authorization: `Bearer ${token}` };
}

export function envelope<N extends EventName>(name: N, payload: EventPayloads[N]): EventEnvelope<N> {
  return {
    id: randomUUID(),
    name,
    version: 1,
    producer: SERVICES.auth,
    occurredAt: new Date().toISOString(),
    payload,
  };
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
