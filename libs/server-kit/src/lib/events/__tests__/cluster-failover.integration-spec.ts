import { randomUUID } from 'node:crypto';
import { eventQueueName, queuePrefix, SERVICES, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, startRedisCluster, type OwnRedisCluster, type TestDatabase } from '@mate/testing';
import { Queue } from 'bullmq';
import { createQueueConnection } from '../../redis/redis';
import { EventMaintenance, maintenanceQueueName, PRUNE_SCHEDULER_ID } from '../ops/event-maintenance';
import { waitFor } from '../../../testing/service-app';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(60_000);

const PREFIX = `failover${process.pid}`;
const CONSUMER_QUEUE = eventQueueName(SERVICES.profile);

const registered = (userId: string): UserRegisteredPayload => ({
  userId,
  email: `${userId}@example.com`,
  name: 'Failover',
  age: 30,
  registeredAt: new Date().toISOString(),
});

/**
 * Events between two kit services on a real Redis Cluster (3 masters, 3 replicas, ADR 0032): the
 * producer's outbox relay publishes to the consumer's queue (its keys in one slot: `{<prefix>:<queue>}`)
 * and the consumer applies them. Then, while events are written and relayed, the master holding
 * the queue's slot is killed (SIGKILL): its replica is promoted, the relay publishes again what it
 * had published lately (the outbox is the source of truth; a job the old master acknowledged but
 * never replicated is added again) and the consumer applies every event exactly once in effect.
 */
describe('outbox relay and consumer on a Redis Cluster', () => {
  let cluster: OwnRedisCluster;
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let producer: KitService;
  let consumer: KitService;

  beforeAll(async () => {
    [cluster, producerDb, consumerDb] = await Promise.all([
      startRedisCluster(),
      createTestDatabase('cluster_producer'),
      createTestDatabase('cluster_consumer'),
    ]);
    const env = { REDIS_CLUSTER_NODES: cluster.seeds, OUTBOX_POLL_MS: '50' };
    consumer = await startKitService({
      service: SERVICES.profile,
      db: consumerDb,
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: PREFIX,
      env,
      setup: (ds) => ds.query('CREATE TABLE applied (seq bigserial PRIMARY KEY, user_id uuid NOT NULL)'),
      handlers: {
        'user.registered': async (payload, manager) => {
          await manager.query('INSERT INTO applied (user_id) VALUES ($1)', [payload.userId]);
        },
      },
    });
    producer = await startKitService({
      service: SERVICES.auth,
      db: producerDb,
      // Never the shared Redis: REDIS_CLUSTER_NODES wins, REDIS_URL would only lend credentials.
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: PREFIX,
      env: { ...env, OUTBOX_RELAY: 'on' },
    });
  }, 60_000);

  afterAll(async () => {
    await producer?.close();
    await consumer?.close();
    await cluster?.stop();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  async function publish(userId: string) {
    await producer.dataSource.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(userId)));
  }

  const appliedUsers = async () =>
    (await consumer.dataSource.query('SELECT user_id FROM applied')) as { user_id: string }[];

  it("delivers events from one service's outbox to another's consumer through a queue whose keys share one slot", async () => {
    const members = Array.from({ length: 20 }, () => randomUUID());
    for (const userId of members) await publish(userId);
    await waitFor(async () => (await appliedUsers()).length === members.length, { timeoutMs: 20_000, what: 'every event applied' });
    expect(new Set((await appliedUsers()).map((r) => r.user_id))).toEqual(new Set(members));
    // BullMQ's keys of the consumer's queue carry its hash tag.
    const master = await cluster.masterOf(`{${PREFIX}:${CONSUMER_QUEUE}}:${CONSUMER_QUEUE}:id`);
    expect(master.alive).toBe(true);
  });

  it("schedules the consumer's event pruning on its own queue's slot (a job scheduler)", async () => {
    await consumer.moduleRef.get(EventMaintenance).ready;
    const name = maintenanceQueueName(SERVICES.profile);
    const connection = createQueueConnection({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: cluster.seeds });
    const queue = new Queue(name, { connection, prefix: queuePrefix(PREFIX, name, true) });
    try {
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([PRUNE_SCHEDULER_ID]);
    } finally {
      await queue.close();
      connection.disconnect();
    }
    expect(consumer.logs.filter((l) => l.msg === 'could not schedule event pruning')).toEqual([]);
  });

  it('applies every event exactly once in effect when the master of the consumer queue is killed under load', async () => {
    await consumer.dataSource.query('TRUNCATE applied');
    const members: string[] = [];
    let writing = true;
    let writeErrors = 0;
    const writer = (async () => {
      while (writing) {
        const userId = randomUUID();
        try {
          await publish(userId);
          members.push(userId);
        } catch {
          writeErrors++;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    await waitFor(async () => (await appliedUsers()).length >= 50, { timeoutMs: 20_000, what: 'events flowing' });
    const master = await cluster.masterOf(`{${PREFIX}:${CONSUMER_QUEUE}}:${CONSUMER_QUEUE}:id`);
    const replicasBefore = cluster.nodes.filter((n) => n.role === 'replica').map((n) => n.port);
    await cluster.kill(master.port);
    await cluster.waitUntilHealthy();
    const promoted = await cluster.masterOf(`{${PREFIX}:${CONSUMER_QUEUE}}:${CONSUMER_QUEUE}:id`);
    expect(promoted.port).not.toBe(master.port);
    expect(replicasBefore).toContain(promoted.port);

    // Writing goes on across the failover; then every written event must arrive.
    const writtenAtFailover = members.length;
    await waitFor(async () => members.length >= writtenAtFailover + 50, { timeoutMs: 20_000, what: 'events written after the failover' });
    writing = false;
    await writer;
    expect(writeErrors).toBe(0);

    await waitFor(
      async () => {
        const rows = await producer.dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
        return rows[0].n === 0;
      },
      { timeoutMs: 30_000, what: 'every outbox row published' },
    );
    await waitFor(async () => new Set((await appliedUsers()).map((r) => r.user_id)).size === members.length, {
      timeoutMs: 30_000,
      what: `all ${members.length} events applied`,
    });
    // The relay saw the failover and relayed its last rows again.
    const replays = producer.logs.filter((l) => l.msg === 'outbox rows relayed again after a Redis Cluster failover');
    expect(replays.length).toBeGreaterThan(0);
    expect(replays.some((l) => Number(l.rows) > 0)).toBe(true);
    const applied = await appliedUsers();
    // Exactly once in effect: a redelivered event is recorded as a duplicate, never applied twice.
    expect(applied).toHaveLength(members.length);
    expect(new Set(applied.map((r) => r.user_id))).toEqual(new Set(members));
  });
});
