import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { eventQueueName, SERVICES, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(60_000);

/** The relay's poll, far beyond this suite: whatever gets published here was nudged. */
const POLL_MS = 600_000;

const registered = (): UserRegisteredPayload => ({
  userId: randomUUID(),
  email: `${randomUUID()}@example.com`,
  name: 'Ada',
  age: 30,
  registeredAt: new Date().toISOString(),
});

describe('the outbox relay publishes an event when its transaction commits, not at the next poll', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let queue: Queue;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('outbox_nudge'), createTestRedisNamespace('outbox-nudge')]);
    producer = await startKitService({
      service: SERVICES.auth,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { OUTBOX_RELAY: 'on', OUTBOX_POLL_MS: String(POLL_MS) },
    });
    queue = new Queue(eventQueueName(SERVICES.profile), { connection: { url: ns.url }, prefix: ns.prefix });
  });

  afterAll(async () => {
    await queue?.close();
    await producer?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  it('relays an event written in a transaction that stays open long after the write, once it commits', async () => {
    let committedAt = 0;
    const envelope = await producer.dataSource.transaction(async (manager) => {
      const written = await producer.outbox.publish(manager, 'user.registered', registered());
      // The transaction goes on working after the write (as a service's does): any nudge timed from
      // the write would find the row still invisible and leave it to the poll.
      await manager.query('SELECT pg_sleep(0.3)');
      return written;
    });
    committedAt = Date.now();
    await waitFor(async () => (await queue.getJob(envelope.id)) !== undefined, { timeoutMs: 10_000, what: 'the event in its queue' });
    const lagMs = Date.now() - committedAt;
    console.log(`outbox commit nudge: published ${lagMs} ms after commit (poll ${POLL_MS} ms)`);
    // Far under the poll: only the commit can have woken the relay (5 s leaves room for a busy CI).
    expect(lagMs).toBeLessThan(5_000);
  });

  it('publishes nothing of a transaction that rolled back', async () => {
    let id = '';
    await expect(
      producer.dataSource.transaction(async (manager) => {
        id = (await producer.outbox.publish(manager, 'user.registered', registered())).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A later committed event is relayed at its commit; the rolled-back one never exists.
    const later = await producer.dataSource.transaction((manager) => producer.outbox.publish(manager, 'user.registered', registered()));
    await waitFor(async () => (await queue.getJob(later.id)) !== undefined, { timeoutMs: 10_000, what: 'the later event in its queue' });
    expect(await queue.getJob(id)).toBeUndefined();
  });
});
