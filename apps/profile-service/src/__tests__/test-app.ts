import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SERVICES, type EventName, type EventPayloads } from '@mate/contracts';
import { EventConsumer, SessionStore } from '@mate/server-kit';
import {
  eventEnvelope,
  issueSession,
  startService,
  startServiceTestBed,
  type RunningService,
  type TestEnv,
} from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

export { waitFor, type TestEnv } from '@mate/server-kit/testing';

export const JWT_SECRET = 'profile-service-test-secret';

/** profile-service in this process on a free port, migrated, exactly as main.ts configures it. */
export function startProfileService(
  env: TestEnv,
  overrides: { provide: unknown; useValue: unknown }[] = [],
): Promise<RunningService> {
  return startService((e) => AppModule.forRoot(e), env, {}, { overrides });
}

/** A live session in Redis and its bearer token, as auth-service would issue them. */
export function signIn(app: NestExpressApplication, jwtSecret: string, userId: string) {
  return issueSession(app.get(SessionStore), jwtSecret, userId as ReturnType<typeof randomUUID>);
}

/** An event as auth-service would publish it. */
export function envelope<N extends EventName>(name: N, payload: EventPayloads[N]) {
  return eventEnvelope(SERVICES.auth, name, payload);
}

export interface ProfileTestBed {
  svc: RunningService;
  app: NestExpressApplication;
  url: string;
  dataSource: DataSource;
  consumer: EventConsumer;
  photoDir: string;
  /** A registered (optionally verified) member with a live session. */
  member(options?: { name?: string | null; age?: number | null; verified?: boolean }): Promise<{
    userId: string;
    token: string;
    authorization: string;
  }>;
  /** PUT /api/profile/me as this member (the profile form); the caller asserts on the answer. */
  putProfile(member: { authorization: string }, body: unknown): request.Test;
  /** Names of the events this member's changes wrote to the outbox, oldest first. */
  eventsOf(userId: string): Promise<{ name: string; payload: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

/**
 * profile-service on the service test bed (fresh database and Redis namespace) with its own photo
 * folder. Members are created the way production creates them: from user.registered (and
 * user.verified) events.
 */
export async function startProfileTestBed(
  label: string,
  extraEnv: TestEnv = {},
  overrides: { provide: unknown; useValue: unknown }[] = [],
): Promise<ProfileTestBed> {
  const photoDir = await mkdtemp(path.join(tmpdir(), `mate-${label}-photos-`));
  const bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env: { JWT_SECRET, PHOTO_STORAGE: 'local', PHOTO_DIR: photoDir, ...extraEnv },
    overrides,
  });
  const consumer = bed.app.get(EventConsumer);
  return {
    svc: { app: bed.app, url: bed.url, close: () => bed.close() },
    app: bed.app,
    url: bed.url,
    dataSource: bed.dataSource,
    consumer,
    photoDir,
    async member({ name = 'Ana', age = 29, verified = true } = {}) {
      const userId = randomUUID();
      await consumer.handle(
        envelope('user.registered', {
          userId,
          email: `${userId}@mate.test`,
          name,
          age,
          registeredAt: new Date().toISOString(),
        }),
      );
      if (verified)
        await consumer.handle(envelope('user.verified', { userId, verifiedAt: new Date().toISOString() }));
      // The session says what auth-service's would: unverified until the email is verified.
      const session = await bed.signIn(userId, undefined, { verified });
      return { userId, token: session.token, authorization: session.authorization };
    },
    putProfile(member, body) {
      return request(bed.app.getHttpServer())
        .put('/api/profile/me')
        .set('Authorization', member.authorization)
        .send(body as object);
    },
    async eventsOf(userId: string) {
      return bed.dataSource.query(
        `SELECT name, body->'payload' AS payload FROM outbox
          WHERE kind = 'event' AND body->'payload'->>'userId' = $1 ORDER BY body->>'occurredAt', created_at`,
        [userId],
      );
    },
    async close() {
      await bed.close();
      await rm(photoDir, { recursive: true, force: true });
    },
  };
}
