import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  SERVICES,
  type EventEnvelope,
  type UserEmailChangedPayload,
  type UserRegisteredPayload,
  type UserVerifiedPayload,
} from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(60_000);

/**
 * The consumer's member table, written the naive way a handler would: whatever arrives last wins.
 * Only the version check stands between a late v1 and a rolled-back state.
 */
function consumerOf(service: KitService) {
  if (!service.consumer) throw new Error('this service has no consumer');
  return service.consumer;
}

async function writeMember(manager: EntityManager, userId: string, name: string | null, verified: boolean) {
  await manager.query(
    `INSERT INTO member (user_id, name, verified) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, verified = EXCLUDED.verified`,
    [userId, name, verified],
  );
}

describe('aggregate versions: a retried or reordered old event never rolls state back', () => {
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let consumer: KitService;
  /**
   * Users whose first user.registered attempt fails, as a transient error would, once the promise
   * given settles (the test lets it fail only after v2 is on the queue, so v2 is handled inside
   * v1's backoff whatever the machine's load).
   */
  const failOnce = new Map<string, Promise<void>>();
  const calls: { name: string; userId: string; version?: number }[] = [];

  beforeAll(async () => {
    [producerDb, consumerDb, ns] = await Promise.all([
      createTestDatabase('versions_producer'),
      createTestDatabase('versions_consumer'),
      createTestRedisNamespace('versions'),
    ]);
    producer = await startKitService({ service: SERVICES.auth, db: producerDb, redisUrl: ns.url, prefix: ns.prefix });
    consumer = await startKitService({
      service: SERVICES.profile,
      db: consumerDb,
      redisUrl: ns.url,
      prefix: ns.prefix,
      consumerConcurrency: 2,
      setup: (ds) => ds.query('CREATE TABLE member (user_id uuid PRIMARY KEY, name text, verified boolean NOT NULL)'),
      handlers: {
        'user.registered': async (payload: UserRegisteredPayload, manager, envelope) => {
          calls.push({ name: envelope.name, userId: payload.userId, version: envelope.aggregateVersion });
          const failAfter = failOnce.get(payload.userId);
          if (failAfter) {
            failOnce.delete(payload.userId);
            await failAfter;
            throw new Error('transient failure');
          }
          await writeMember(manager, payload.userId, payload.name, false);
        },
        'user.verified': async (payload: UserVerifiedPayload, manager, envelope) => {
          calls.push({ name: envelope.name, userId: payload.userId, version: envelope.aggregateVersion });
          await writeMember(manager, payload.userId, payload.name ?? null, true);
        },
        'user.email_changed': async (payload: UserEmailChangedPayload, _manager, envelope) => {
          calls.push({ name: envelope.name, userId: payload.userId });
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

  const registered = (userId: string, name = 'Ana'): UserRegisteredPayload => ({
    userId,
    email: `${userId}@mate.test`,
    name,
    age: 30,
    registeredAt: new Date().toISOString(),
  });
  const verified = (userId: string, name = 'Ana'): UserVerifiedPayload => ({
    userId,
    verifiedAt: new Date().toISOString(),
    name,
    age: 30,
  });

  async function member(userId: string) {
    const rows = await consumer.dataSource.query('SELECT name, verified FROM member WHERE user_id = $1', [userId]);
    return rows[0] ?? null;
  }
  async function processed(eventId: string): Promise<string | null> {
    const rows = await consumer.dataSource.query('SELECT outcome FROM processed_event WHERE event_id = $1', [eventId]);
    return rows[0]?.outcome ?? null;
  }

  it('numbers the events of one aggregate 1, 2, 3 in the producer, each aggregate on its own, facts without a number', async () => {
    const ana = randomUUID();
    const ben = randomUUID();
    const ds = producer.dataSource;
    const first = await ds.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(ana)));
    const second = await ds.transaction((m) => producer.outbox.publish(m, 'user.verified', verified(ana)));
    const other = await ds.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(ben)));
    const fact = await ds.transaction((m) =>
      producer.outbox.publish(m, 'user.email_changed', { userId: ana, oldEmail: 'a@x', newEmail: 'b@x', changedAt: '' }),
    );
    expect(first).toMatchObject({ aggregateType: 'user', aggregateId: ana, aggregateVersion: 1, version: 1 });
    expect(second).toMatchObject({ aggregateType: 'user', aggregateId: ana, aggregateVersion: 2, version: 2 });
    expect(other).toMatchObject({ aggregateId: ben, aggregateVersion: 1 });
    expect(fact.aggregateId).toBeUndefined();
    expect(fact.aggregateVersion).toBeUndefined();

    // What the relay will send is what publish answered.
    const [{ body }] = await ds.query('SELECT body FROM outbox WHERE id = $1', [second.id]);
    expect(body).toMatchObject({ aggregateType: 'user', aggregateId: ana, aggregateVersion: 2 });
    await producer.outbox.relayOnce();
  });

  it('gives concurrent writers of one aggregate distinct versions, and a rolled-back one gives its version back', async () => {
    const userId = randomUUID();
    const ds = producer.dataSource;
    const versions = await Promise.all(
      Array.from({ length: 12 }, () =>
        ds.transaction(async (m) => (await producer.outbox.publish(m, 'user.verified', verified(userId))).aggregateVersion),
      ),
    );
    expect([...versions].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    await expect(
      ds.transaction(async (m) => {
        await producer.outbox.publish(m, 'user.verified', verified(userId));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const next = await ds.transaction((m) => producer.outbox.publish(m, 'user.verified', verified(userId)));
    expect(next.aggregateVersion).toBe(13);
    await producer.outbox.relayOnce();
  });

  it('applies v2 and skips v1 when v1 is retried after v2 (backoff and concurrency), never calling its handler again', async () => {
    const userId = randomUUID();
    let v2Queued: () => void = () => undefined;
    failOnce.set(userId, new Promise<void>((resolve) => (v2Queued = resolve)));
    const ds = producer.dataSource;
    const v1 = await ds.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(userId, 'Ana')));
    await producer.outbox.relayOnce();
    // v1's first attempt is under way (published and relayed together, v2 could be handled before
    // v1 was ever tried, on a busy machine: then v1 is merely stale, and this test proves nothing).
    await waitFor(async () => calls.some((c) => c.userId === userId && c.version === 1), { what: "v1's first attempt" });
    const v2 = await ds.transaction((m) => producer.outbox.publish(m, 'user.verified', verified(userId, 'Ana')));
    expect([v1.aggregateVersion, v2.aggregateVersion]).toEqual([1, 2]);
    await producer.outbox.relayOnce();
    v2Queued();

    // v1's first attempt fails and waits for its backoff; v2 is handled meanwhile; then v1 comes back.
    expect(await waitFor(() => processed(v1.id), { what: 'v1 to come back after its retry' })).toBe('stale');
    expect(await processed(v2.id)).toBe('handled');
    expect(await member(userId)).toEqual({ name: 'Ana', verified: true });

    const mine = calls.filter((c) => c.userId === userId);
    // Only the failed attempt (rolled back) ever ran v1's handler.
    expect(mine).toEqual([
      { name: 'user.registered', userId, version: 1 },
      { name: 'user.verified', userId, version: 2 },
    ]);
    const [applied] = await consumer.dataSource.query(
      "SELECT version::int AS version FROM applied_version WHERE aggregate_type = 'user' AND aggregate_id = $1",
      [userId],
    );
    expect(applied.version).toBe(2);
  });

  it('ends in the newest state whatever order concurrent deliveries take', async () => {
    const consumerService = consumerOf(consumer);
    const envelopes = (userId: string): [EventEnvelope, EventEnvelope] => {
      const base = { producer: SERVICES.auth, occurredAt: new Date().toISOString(), aggregateType: 'user' as const, aggregateId: userId };
      return [
        { ...base, id: randomUUID(), name: 'user.registered', version: 1, aggregateVersion: 1, payload: registered(userId, 'Old') },
        { ...base, id: randomUUID(), name: 'user.verified', version: 2, aggregateVersion: 2, payload: verified(userId, 'New') },
      ];
    };
    const users = Array.from({ length: 10 }, () => randomUUID());
    await Promise.all(
      users.flatMap((userId, i) => {
        const [older, newer] = envelopes(userId);
        // Half newest first, half oldest first, all at once.
        return (i % 2 ? [newer, older] : [older, newer]).map((e) => consumerService.apply(e));
      }),
    );
    for (const userId of users) expect(await member(userId)).toEqual({ name: 'New', verified: true });
  });

  it('tells a redelivered event (duplicate) from an older version (stale), and handles facts once each in any order', async () => {
    const consumerService = consumerOf(consumer);
    const userId = randomUUID();
    const base = { producer: SERVICES.auth, occurredAt: new Date().toISOString(), aggregateType: 'user' as const, aggregateId: userId };
    const v3: EventEnvelope = { ...base, id: randomUUID(), name: 'user.verified', version: 2, aggregateVersion: 3, payload: verified(userId) };
    expect(await consumerService.apply(v3)).toBe('handled');
    expect(await consumerService.apply(v3)).toBe('duplicate');
    expect(await consumerService.apply({ ...v3, id: randomUUID(), aggregateVersion: 3 })).toBe('stale');

    const fact = (newEmail: string): EventEnvelope<'user.email_changed'> => ({
      id: randomUUID(),
      name: 'user.email_changed',
      version: 1,
      producer: SERVICES.auth,
      occurredAt: new Date().toISOString(),
      payload: { userId, oldEmail: 'x@mate.test', newEmail, changedAt: new Date().toISOString() },
    });
    const later = fact('c@mate.test');
    const earlier = fact('b@mate.test');
    expect(await consumerService.apply(later)).toBe('handled');
    expect(await consumerService.apply(earlier)).toBe('handled');
    expect(await consumerService.apply(earlier)).toBe('duplicate');
    expect(calls.filter((c) => c.userId === userId && c.name === 'user.email_changed')).toHaveLength(2);
  });
});
