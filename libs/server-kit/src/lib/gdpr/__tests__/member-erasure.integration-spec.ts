import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import {
  eventQueueName,
  pairIdOf,
  SERVICES,
  type EventEnvelope,
  type ProfileUpdatedPayload,
  type UserBlockedPayload,
  type UserDeletedPayload,
} from '@mate/contracts';
import { columnsHolding, createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { aProfile } from '../../../testing/gateway-test-bed';
import { startKitService, type KitService } from '../../events/__tests__/event-harness';
import { eraseMemberTraces, erasedMemberHash, isMemberErased, lockMembersAgainstErasure, memberIdsOf } from '../member-erasure';

jest.setTimeout(60_000);

/**
 * The kit's half of erasing a member (issue 12, docs/adr/0016-member-data.md): its own tables keep
 * no trace of the id, later events naming the member are dropped, and an event racing the erasure
 * either lands before it (and is erased) or is dropped.
 */
describe('member erasure', () => {
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let consumer: KitService;
  /** A handler that waits here holds its transaction open (to race the erasure). */
  const gates = new Map<string, Promise<void>>();

  beforeAll(async () => {
    [producerDb, consumerDb, ns] = await Promise.all([
      createTestDatabase('erasure_producer'),
      createTestDatabase('erasure_consumer'),
      createTestRedisNamespace('erasure'),
    ]);
    producer = await startKitService({ service: SERVICES.safety, db: producerDb, redisUrl: ns.url, prefix: ns.prefix });
    consumer = await startKitService({
      service: SERVICES.matching,
      db: consumerDb,
      redisUrl: ns.url,
      prefix: ns.prefix,
      consumerConcurrency: 4,
      setup: (ds) => ds.query('CREATE TABLE candidate (user_id uuid PRIMARY KEY, name text)'),
      handlers: {
        'profile.updated': async (payload: ProfileUpdatedPayload, manager) => {
          await manager.query(
            'INSERT INTO candidate (user_id, name) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name',
            [payload.userId, payload.name],
          );
          await gates.get(payload.userId);
        },
        'user.deleted': async (payload: UserDeletedPayload, manager) => {
          await manager.query('DELETE FROM candidate WHERE user_id = $1', [payload.userId]);
          await eraseMemberTraces(manager, payload.userId);
        },
      },
    });
  });

  afterAll(async () => {
    await consumer?.close();
    await producer?.close();
    await ns?.cleanup();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  // A whole payload: the consumer reads each one against its catalogue class before any handler.
  const profile = (userId: string, name = 'Ana'): ProfileUpdatedPayload => aProfile(userId, name);
  const envelope = <P>(name: EventEnvelope['name'], payload: P, extra: Partial<EventEnvelope> = {}): EventEnvelope =>
    ({ id: randomUUID(), name, version: 1, producer: SERVICES.profile, occurredAt: new Date().toISOString(), payload, ...extra }) as EventEnvelope;
  const deleted = (userId: string) => envelope('user.deleted', { userId, deletedAt: new Date().toISOString() });
  const updated = (userId: string, name = 'Ana', version = 1) =>
    envelope('profile.updated', profile(userId, name), { aggregateType: 'profile', aggregateId: userId, aggregateVersion: version });

  /** Every column of every table of the database, as text, that contains the id. */
  const tracesOf = (db: KitService, userId: string) => columnsHolding(db.dataSource, userId);

  it('names the members of a payload: top-level ids, id lists and pair ids, in one lower-case spelling', () => {
    const a = randomUUID();
    const b = randomUUID().toUpperCase();
    expect(memberIdsOf({ userId: a, userIds: [b, 'x'], note: 'not an id', n: 3 })).toEqual([a, b.toLowerCase()].sort());
    expect(memberIdsOf({ pairId: `${a}:${b.toLowerCase()}` })).toEqual([a, b.toLowerCase()].sort());
    expect(memberIdsOf(null)).toEqual([]);
  });

  it('leaves no trace of the id in the kit tables of producer and consumer, records only a hash, and is idempotent', async () => {
    const ana = randomUUID();
    const ben = randomUUID();
    // The producer wrote events naming her: a pair event (pair version row, outbox body) and a job.
    const pair = { pairId: pairIdOf(ana, ben), blockedBy: [ben], blockerId: ben, blockedId: ana, endedMatchId: null, blockedAt: new Date().toISOString() };
    await producer.dataSource.transaction((m) => producer.outbox.publish(m, 'user.blocked', pair as unknown as UserBlockedPayload));
    const other = randomUUID();
    await producer.dataSource.transaction((m) =>
      producer.outbox.publish(m, 'user.blocked', { ...pair, pairId: pairIdOf(other, ben), blockerId: ben, blockedId: other, blockedBy: [ben] } as unknown as UserBlockedPayload),
    );
    // The consumer applied a versioned event of hers (applied_version row, processed_event).
    expect(await consumer.consumer!.apply(updated(ana))).toBe('handled');
    expect(await tracesOf(producer, ana)).not.toEqual([]);
    expect(await tracesOf(consumer, ana)).not.toEqual([]);

    const erased = await producer.dataSource.transaction((m) => eraseMemberTraces(m, ana.toUpperCase()));
    expect(erased).toEqual({ outbox: 1, versions: 1 });
    expect(await consumer.consumer!.apply(deleted(ana))).toBe('handled');

    expect(await tracesOf(producer, ana)).toEqual([]);
    expect(await tracesOf(consumer, ana)).toEqual([]);
    // Another member's events stay.
    expect(await tracesOf(producer, other)).toEqual(['aggregate_version.aggregate_id', 'outbox.body']);
    const [{ id_hash }] = await consumer.dataSource.query('SELECT id_hash FROM erased_member');
    expect(Buffer.compare(id_hash, erasedMemberHash(ana))).toBe(0);
    await consumer.dataSource.transaction(async (m) => expect(await isMemberErased(m, ana)).toBe(true));

    // Twice: nothing else changes, no error.
    expect(await producer.dataSource.transaction((m) => eraseMemberTraces(m, ana))).toEqual({ outbox: 0, versions: 0 });
    expect(await consumer.consumer!.apply(deleted(ana))).toBe('handled');
    expect(await tracesOf(consumer, ana)).toEqual([]);
  });

  it('drops a later event naming the erased member (no row, no version row), and still applies other members', async () => {
    const ana = randomUUID();
    expect(await consumer.consumer!.apply(deleted(ana))).toBe('handled');
    const late = updated(ana, 'Ana again', 7);
    expect(await consumer.consumer!.apply(late)).toBe('erased');
    const [{ outcome }] = await consumer.dataSource.query('SELECT outcome FROM processed_event WHERE event_id = $1', [late.id]);
    expect(outcome).toBe('erased');
    expect(await tracesOf(consumer, ana)).toEqual([]);

    const ben = randomUUID();
    expect(await consumer.consumer!.apply(updated(ben, 'Ben'))).toBe('handled');
    await consumer.dataSource.transaction(async (m) => expect(await lockMembersAgainstErasure(m, [ben, ana])).toBe(true));
    await consumer.dataSource.transaction(async (m) => expect(await lockMembersAgainstErasure(m, [ben])).toBe(false));
  });

  it('orders an event racing the erasure: the erasure waits for it and erases what it wrote', async () => {
    const ana = randomUUID();
    let open!: () => void;
    gates.set(ana, new Promise<void>((resolve) => (open = resolve)));
    const racing = consumer.consumer!.apply(updated(ana, 'Racing'));
    await waitFor(async () => {
      const rows = await consumer.dataSource.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND granted`,
      );
      return rows.length > 0 || undefined;
    }, { what: 'the racing event to hold its member lock' });
    const erasure = consumer.consumer!.apply(deleted(ana));
    // The erasure waits on the lock while the event's transaction is open.
    await waitFor(async () => {
      const rows = await consumer.dataSource.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
      return rows.length > 0 || undefined;
    }, { what: 'the erasure to wait for the racing event' });
    open();
    expect(await racing).toBe('handled');
    expect(await erasure).toBe('handled');
    expect(await tracesOf(consumer, ana)).toEqual([]);
    gates.delete(ana);
  });

  it('the relay hands user.deleted to every consumer queue and then deletes its outbox row', async () => {
    const auth = await startKitService({ service: SERVICES.auth, db: producerDb, redisUrl: ns.url, prefix: ns.prefix });
    try {
      const ana = randomUUID();
      const published = await auth.dataSource.transaction((m) =>
        auth.outbox.publish(m, 'user.deleted', { userId: ana, deletedAt: new Date().toISOString() }),
      );
      await auth.outbox.relayOnce();
      expect(await auth.dataSource.query('SELECT 1 FROM outbox WHERE id = $1', [published.id])).toEqual([]);
      const connection = new Redis(ns.url, { maxRetriesPerRequest: null });
      const queue = new Queue(eventQueueName(SERVICES.chat), { connection, prefix: ns.prefix });
      try {
        const job = await queue.getJob(published.id);
        expect(job?.data).toMatchObject({ name: 'user.deleted', payload: { userId: ana } });
      } finally {
        await queue.close();
        await connection.quit();
      }
    } finally {
      await auth.close();
    }
  });
});
