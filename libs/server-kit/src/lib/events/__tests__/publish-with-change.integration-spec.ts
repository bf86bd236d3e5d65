import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { eventQueueName, SERVICES, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(60_000);

const registered = (userId: string, name: string): UserRegisteredPayload => ({
  userId,
  email: `${userId}@example.com`,
  name,
  age: 30,
  registeredAt: new Date().toISOString(),
});

/** The producer's own change (an UPDATE … RETURNING) with its parameters. */
const rename = (userId: string, name: string) => ({
  sql: 'UPDATE account SET name = $2 WHERE id = $1 RETURNING id',
  params: [userId, name],
});

describe('OutboxService.publishWithChange: the change and its event in one statement', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('publish_with_change'), createTestRedisNamespace('publish-with-change')]);
    producer = await startKitService({
      service: SERVICES.auth,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      setup: (ds) => ds.query('CREATE TABLE account (id uuid PRIMARY KEY, name text NOT NULL)'),
    });
  });

  afterAll(async () => {
    await producer?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  const versionOf = async (userId: string): Promise<number | null> =>
    (await producer.dataSource.query(`SELECT version FROM aggregate_version WHERE aggregate_type = 'user' AND aggregate_id = $1`, [userId]))[0]
      ?.version ?? null;

  it('writes the change and the event, and gives the event the next version after publish()', async () => {
    const userId = randomUUID();
    await producer.dataSource.query(`INSERT INTO account (id, name) VALUES ($1, 'Ada')`, [userId]);
    const first = await producer.dataSource.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(userId, 'Ada')));
    const second = await producer.dataSource.transaction((m) =>
      producer.outbox.publishWithChange(m, 'user.registered', registered(userId, 'Grace'), rename(userId, 'Grace')),
    );
    expect(first.aggregateVersion).toBe(1);
    expect(second).toMatchObject({ aggregateType: 'user', aggregateId: userId, aggregateVersion: 2 });
    const [account] = await producer.dataSource.query('SELECT name FROM account WHERE id = $1', [userId]);
    expect(account.name).toBe('Grace');
    const [row] = await producer.dataSource.query('SELECT body FROM outbox WHERE id = $1', [second?.id]);
    expect(row.body).toEqual(JSON.parse(JSON.stringify(second)));
  });

  it('writes no event and takes no version when the change touched no row', async () => {
    const userId = randomUUID();
    const envelope = await producer.dataSource.transaction((m) =>
      producer.outbox.publishWithChange(m, 'user.registered', registered(userId, 'Nobody'), rename(userId, 'Nobody')),
    );
    expect(envelope).toBeNull();
    expect(await versionOf(userId)).toBeNull();
    const rows = await producer.dataSource.query(`SELECT 1 FROM outbox WHERE body->'payload'->>'userId' = $1`, [userId]);
    expect(rows).toHaveLength(0);
  });

  it('leaves neither the change nor the event when the transaction rolls back', async () => {
    const userId = randomUUID();
    await producer.dataSource.query(`INSERT INTO account (id, name) VALUES ($1, 'Ada')`, [userId]);
    await expect(
      producer.dataSource.transaction(async (m) => {
        await producer.outbox.publishWithChange(m, 'user.registered', registered(userId, 'Grace'), rename(userId, 'Grace'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const [account] = await producer.dataSource.query('SELECT name FROM account WHERE id = $1', [userId]);
    expect(account.name).toBe('Ada');
    expect(await versionOf(userId)).toBeNull();
  });

  it('refuses a fact, which has no version to take', async () => {
    await expect(
      producer.dataSource.transaction((m) =>
        producer.outbox.publishWithChange(m, 'user.email_changed', { userId: randomUUID() } as never, rename(randomUUID(), 'x')),
      ),
    ).rejects.toThrow(/publish\(\)/);
  });
});

describe('the relay under a stream of commits', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let queue: Queue;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('relay_gather'), createTestRedisNamespace('relay-gather')]);
    // The poll far beyond the test: every pass here was nudged by a commit. The gather window
    // (RELAY_GATHER_MS in production) long enough that several commits join each pass even when a
    // loaded machine spaces them by tens of milliseconds: the test is about the gathering, not the speed.
    producer = await startKitService({
      service: SERVICES.auth,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { OUTBOX_RELAY: 'on', OUTBOX_POLL_MS: '600000' },
      outbox: { gatherMs: 500 },
    });
    queue = new Queue(eventQueueName(SERVICES.profile), { connection: { url: ns.url }, prefix: ns.prefix });
  });

  afterAll(async () => {
    await queue?.close();
    await producer?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  it('gathers a steady stream of commits into passes of several rows, and publishes every one', async () => {
    // One writer, one commit after the other (a few ms apart): without the gather each commit
    // had a pass of its own, a claim, a Redis round trip and an update for one or two rows.
    const WRITES = 300;
    const ids: string[] = [];
    for (let i = 0; i < WRITES; i++) {
      const envelope = await producer.dataSource.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(randomUUID(), 'Ada')));
      ids.push(envelope.id);
    }
    await waitFor(
      async () => (await producer.dataSource.query('SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 1')).length === 0,
      { timeoutMs: 30_000, what: 'every row published' },
    );
    // A pass stamps all the rows it published with one published_at.
    const [{ passes }] = await producer.dataSource.query('SELECT count(DISTINCT published_at)::int AS passes FROM outbox');
    console.log(`relay gather: ${ids.length} commits published in ${passes} passes`);
    expect(passes).toBeLessThan(ids.length / 3);
    const counts = await queue.getJobCounts('waiting');
    expect(counts.waiting).toBe(ids.length);
  });
});

describe("the relay while the service's requests hold every pooled connection", () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let writer: KitService;
  let service: KitService;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('relay_connection'), createTestRedisNamespace('relay-connection')]);
    writer = await startKitService({ service: SERVICES.auth, db, redisUrl: ns.url, prefix: ns.prefix });
    service = await startKitService({
      service: SERVICES.auth,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { OUTBOX_RELAY: 'on', OUTBOX_POLL_MS: '50' },
    });
  });

  afterAll(async () => {
    await service?.close();
    await writer?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  it('publishes on its own connection instead of queueing behind them', async () => {
    const first = await writer.dataSource.transaction((m) => writer.outbox.publish(m, 'user.registered', registered(randomUUID(), 'Ada')));
    const published = async (id: string) =>
      (await writer.dataSource.query('SELECT 1 FROM outbox WHERE id = $1 AND published_at IS NOT NULL', [id])).length > 0;
    await waitFor(() => published(first.id), { timeoutMs: 10_000, what: 'the first event published' });
    // Slow requests ask for every connection of the service's pool (DatabaseModule: 10) for 6 s; the
    // one the relay holds is not among them (that request gives up after the pool's 5 s wait).
    const SLOW_S = 6;
    let poolHeld = true;
    const slow = Promise.all(
      Array.from({ length: 10 }, () => service.dataSource.query(`SELECT pg_sleep(${SLOW_S})`).catch(() => 'no connection')),
    ).finally(() => (poolHeld = false));
    const next = await writer.dataSource.transaction((m) => writer.outbox.publish(m, 'user.registered', registered(randomUUID(), 'Grace')));
    await waitFor(() => published(next.id), { timeoutMs: 10_000, what: 'the event published while the pool is busy' });
    // Published while the slow requests still held the pool (ordering, not a wall-clock bound).
    expect(poolHeld).toBe(true);
    await slow;
  });
});
