import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { EVENT_CATALOGUE, eventQueueName, eventsConsumedBy, SERVICES, type ServiceName, type UserRegisteredPayload } from '@mate/contracts';
import {
  DatabaseEnv,
  EventConsumer,
  OutboxService,
  ServiceModule,
  runMigrations,
  type EventHandlerSet,
} from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { runEventsCli } from '../cli';
import type { StatusReport } from '../cli';

const ROOT = path.resolve(__dirname, '../../../..');
let refuse = false;

/**
 * A profile-service stand-in: records each registration, or refuses them all while `refuse`; every
 * other event the catalogue routes to profile-service is ignored (the kit refuses a consumer
 * without a handler for each).
 */
@Injectable()
class Registrations implements EventHandlerSet {
  handlers() {
    const ignored = Object.fromEntries(eventsConsumedBy(SERVICES.profile).map((name) => [name, async () => undefined]));
    return {
      ...ignored,
      'user.registered': async (payload: UserRegisteredPayload, manager: EntityManager) => {
        if (refuse) throw new Error('refused for the test');
        await manager.query('INSERT INTO seen_user (user_id) VALUES ($1)', [payload.userId]);
      },
    };
  }
}

/** An admin-service stand-in: since issue 13 it consumes user.registered too; it takes every event and keeps nothing. */
@Injectable()
class IgnoredByAdmin implements EventHandlerSet {
  handlers() {
    return Object.fromEntries(eventsConsumedBy(SERVICES.admin).map((name) => [name, async () => undefined]));
  }
}

@Module({})
class HandlersHost {}

describe('npm run events', () => {
  let authDb: TestDatabase;
  let profileDb: TestDatabase;
  let adminDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let auth: TestingModule;
  let profile: TestingModule;
  let admin: TestingModule;
  let connection: Redis;
  let profileQueue: Queue;
  let flags: string[];

  async function start(service: ServiceName, db: TestDatabase, handlers?: new () => EventHandlerSet) {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ServiceModule.forRoot({
          service,
          envClass: DatabaseEnv,
          env: { DATABASE_URL: db.url, REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, OUTBOX_RELAY: 'off', WORKERS: 'off', LOG_LEVEL: 'silent' },
          entities: [],
          migrations: [],
          features: [HandlersHost],
          handlers,
        }),
      ],
    }).compile();
    await moduleRef.init();
    await runMigrations(moduleRef);
    return moduleRef;
  }

  /** The CLI in this process, on the test's databases and Redis prefix. */
  async function cli(...args: string[]) {
    let out = '';
    let err = '';
    const code = await runEventsCli([...args, ...flags], {
      env: {},
      out: (t) => (out += t),
      err: (t) => (err += t),
    });
    return { code, out, err };
  }

  async function statusJson(...args: string[]): Promise<StatusReport> {
    const { code, out } = await cli('status', '--json', ...args);
    expect(code).toBe(0);
    return JSON.parse(out) as StatusReport;
  }

  function register(userId = randomUUID()) {
    return auth.get(DataSource).transaction((m) =>
      auth.get(OutboxService).publish(m, 'user.registered', {
        userId,
        email: `${userId}@mate.test`,
        name: 'Ana',
        age: 30,
        registeredAt: new Date().toISOString(),
      }),
    );
  }

  beforeAll(async () => {
    [authDb, profileDb, adminDb, ns] = await Promise.all([
      createTestDatabase('cli_auth'),
      createTestDatabase('cli_profile'),
      createTestDatabase('cli_admin'),
      createTestRedisNamespace('cli'),
    ]);
    auth = await start(SERVICES.auth, authDb);
    profile = await start(SERVICES.profile, profileDb, Registrations);
    admin = await start(SERVICES.admin, adminDb, IgnoredByAdmin);
    await profile.get(DataSource).query('CREATE TABLE seen_user (user_id uuid NOT NULL)');
    connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    profileQueue = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: ns.prefix });
    flags = [
      '--database',
      `${SERVICES.auth}=${authDb.url}`,
      '--database',
      `${SERVICES.profile}=${profileDb.url}`,
      '--redis-url',
      ns.url,
      '--prefix',
      ns.prefix,
    ];
  });

  afterAll(async () => {
    await profileQueue.close();
    await connection.quit();
    await profile.close();
    await admin.close();
    await auth.close();
    await ns.cleanup();
    await authDb.drop();
    await profileDb.drop();
    await adminDb.drop();
  });

  it('status: the outbox backlog, then the queue, then every consumer caught up', async () => {
    const users = [randomUUID(), randomUUID()];
    for (const id of users) await register(id);

    const before = await statusJson();
    expect(before.caughtUp).toBe(false);
    expect(before.outboxes.find((o) => o.service === SERVICES.auth)).toMatchObject({ unpublished: 2 });
    expect(before.outboxes.find((o) => o.service === SERVICES.profile)).toMatchObject({ unpublished: 0 });
    // Every consumer of the catalogue, today's and later ones, has a row; since issue 13 every one is deployed.
    const everyConsumer = new Set(Object.values(EVENT_CATALOGUE).flatMap((e) => [...e.consumers, ...e.later]));
    expect(before.consumers.map((c) => c.consumer).sort()).toEqual([...everyConsumer].sort());
    expect(before.consumers.filter((c) => c.state === 'not-deployed')).toEqual([]);

    await auth.get(OutboxService).relayOnce();
    const queued = await statusJson();
    expect(queued.consumers.find((c) => c.consumer === SERVICES.profile)).toMatchObject({
      waiting: 2,
      workers: 0,
      state: 'not-running',
    });
    expect(queued.caughtUp).toBe(false);

    profile.get(EventConsumer).start();
    admin.get(EventConsumer).start();
    const after = await statusJson('--wait', '20');
    expect(after.caughtUp).toBe(true);
    expect(after.consumers.find((c) => c.consumer === SERVICES.profile)).toMatchObject({ waiting: 0, state: 'caught-up' });

    const table = await cli('status');
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/profile-service\s+caught-up\s+0\s+0\s+0\s+0\s+1/);
    expect(table.out).toContain('Every consumer is caught up.');
  });

  it('redrive: failed jobs run again and the count is printed', async () => {
    refuse = true;
    const { id } = await register();
    const [{ body }] = await auth.get(DataSource).query('SELECT body FROM outbox WHERE id = $1', [id]);
    await auth.get(DataSource).query('UPDATE outbox SET published_at = now() WHERE id = $1', [id]);
    await profileQueue.add('user.registered', body, { jobId: id, attempts: 1 });
    await waitFor(async () => (await profileQueue.getFailedCount()) === 1, { what: 'the job to fail' });
    expect((await statusJson()).consumers.find((c) => c.consumer === SERVICES.profile)?.state).toBe('failed');

    refuse = false;
    const { code, out } = await cli('redrive', SERVICES.profile, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ consumer: SERVICES.profile, redriven: 1 });
    expect((await statusJson('--wait', '20')).caughtUp).toBe(true);
    const seen = await profile.get(DataSource).query('SELECT 1 FROM seen_user WHERE user_id = $1', [body.payload.userId]);
    expect(seen).toHaveLength(1);
  });

  it('replay: re-sends the stored events (from --since) and the consumer applies none twice', async () => {
    const before: { n: number }[] = await profile.get(DataSource).query('SELECT count(*)::int AS n FROM seen_user');
    const { code, out } = await cli('replay', SERVICES.profile, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ consumer: SERVICES.profile, replayed: 3, since: null });
    expect((await statusJson('--wait', '20')).caughtUp).toBe(true);
    expect(await profile.get(DataSource).query('SELECT count(*)::int AS n FROM seen_user')).toEqual(before);

    const later = await cli('replay', SERVICES.profile, '--since', new Date(Date.now() + 60_000).toISOString());
    expect(later).toMatchObject({ code: 0 });
    expect(later.out).toContain('profile-service: 0 event(s)');
  });

  it('answers a bad command line with the usage and exit status 2', async () => {
    expect(await cli('restart')).toMatchObject({ code: 2, err: expect.stringContaining('Unknown command "restart"') });
    expect(await cli('replay', 'nobody')).toMatchObject({ code: 2, err: expect.stringContaining('"nobody" consumes no event') });
    expect(await cli('replay', SERVICES.profile, '--since', 'yesterday')).toMatchObject({
      code: 2,
      err: expect.stringContaining('"yesterday" is not a date'),
    });
    expect(await cli('redrive')).toMatchObject({ code: 2, err: expect.stringContaining('Usage: npm run events') });
  });

  it('runs as `npm run events` does, through its launcher, with no build step', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['tools/events/events.cjs', 'status', '--json', ...flags], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test' },
    });
    const report = JSON.parse(stdout) as StatusReport;
    expect(report.caughtUp).toBe(true);
    expect(report.outboxes.map((o) => o.service).sort()).toEqual([SERVICES.auth, SERVICES.profile]);
  });
});
