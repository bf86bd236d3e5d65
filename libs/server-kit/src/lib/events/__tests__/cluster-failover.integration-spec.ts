import { randomUUID } from 'node:crypto';
import { eventQueueName, queuePrefix, SERVICES, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, startRedisCluster, type OwnRedisCluster, type TestDatabase } from '@mate/testing';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
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

/**
 * The producer (auth-service's relay) and the consumer (profile-service, recording each
 * user.registered in `applied`) of a spec, on the cluster of `env` (REDIS_CLUSTER_NODES wins:
 * never the shared Redis, whose URL would only lend credentials).
 */
async function startPair(consumerDb: TestDatabase, producerDb: TestDatabase, prefix: string, env: Record<string, string>, consumerEnv: Record<string, string> = {}) {
  const consumer = await startKitService({
    service: SERVICES.profile,
    db: consumerDb,
    redisUrl: 'redis://127.0.0.1:6379',
    prefix,
    env: { ...env, ...consumerEnv },
    setup: (ds) => ds.query('CREATE TABLE applied (seq bigserial PRIMARY KEY, user_id uuid NOT NULL)'),
    handlers: {
      'user.registered': async (payload, manager) => {
        await manager.query('INSERT INTO applied (user_id) VALUES ($1)', [payload.userId]);
      },
    },
  });
  const producer = await startKitService({
    service: SERVICES.auth,
    db: producerDb,
    redisUrl: 'redis://127.0.0.1:6379',
    prefix,
    env: { ...env, OUTBOX_RELAY: 'on' },
  });
  return { consumer, producer };
}

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
    ({ consumer, producer } = await startPair(consumerDb, producerDb, PREFIX, env));
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

/**
 * Jobs Redis really LOST in a failover, recovered by the relay's replay. Redis replicates
 * asynchronously: a master acknowledges a write before its replica has it, and a replica promoted
 * after its master crashed lacks what it had not received yet. On loopback the replica is always
 * caught up within a millisecond, so the loss is made real and deterministic here: the replica's
 * replication link is cut (its `masterauth` set to a password the master does not take, then the
 * master drops its replica connection: the replica cannot reconnect), the last events are relayed
 * to the master alone, and the master is SIGKILLed: its replica (`cluster-replica-validity-factor 0`,
 * so a link down for a while does not bar it) is promoted without those jobs. The consumer is not
 * consuming meanwhile, so every job sits in the queue and nothing but the relay can bring it back.
 * A cluster of its own: the one above has a shard without replica left after its failover.
 */
describe('outbox relay on a Redis Cluster: jobs lost by a failover', () => {
  const LOST_PREFIX = `lost${process.pid}`;
  const queuePrefixOfTest = queuePrefix(LOST_PREFIX, CONSUMER_QUEUE, true);
  const jobKey = (id: string) => `${queuePrefixOfTest}:${CONSUMER_QUEUE}:${id}`;
  let cluster: OwnRedisCluster;
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let producer: KitService;
  let consumer: KitService;
  const direct: Redis[] = [];

  /** A plain connection to one node (not the cluster client), for replication commands and reads. */
  const nodeClient = (port: number) => {
    const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => undefined);
    direct.push(client);
    return client;
  };

  beforeAll(async () => {
    [cluster, producerDb, consumerDb] = await Promise.all([
      startRedisCluster(),
      createTestDatabase('lost_producer'),
      createTestDatabase('lost_consumer'),
    ]);
    const env = { REDIS_CLUSTER_NODES: cluster.seeds, OUTBOX_POLL_MS: '50' };
    // Not consuming until the test starts its worker: the relayed jobs wait in the queue.
    ({ consumer, producer } = await startPair(consumerDb, producerDb, LOST_PREFIX, env, { WORKERS: 'off' }));
  }, 60_000);

  afterAll(async () => {
    for (const client of direct) client.disconnect();
    await producer?.close();
    await consumer?.close();
    await cluster?.stop();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  async function publishAll(userIds: string[]) {
    for (const userId of userIds) {
      await producer.dataSource.transaction((m) => producer.outbox.publish(m, 'user.registered', registered(userId)));
    }
  }

  /** The event rows' ids, once every row is published (relayed). */
  async function relayedRowIds(expected: number): Promise<string[]> {
    return waitFor(
      async () => {
        const rows: { id: string; published: boolean }[] = await producer.dataSource.query(
          `SELECT id, published_at IS NOT NULL AS published FROM outbox WHERE kind = 'event'`,
        );
        return rows.length === expected && rows.every((r) => r.published) && rows.map((r) => r.id);
      },
      { timeoutMs: 15_000, what: `${expected} outbox rows relayed` },
    );
  }

  const existing = async (client: Redis, ids: string[]) => (await client.exists(...ids.map(jobKey))) as number;

  it('relays again the jobs a promoted replica never received, and the consumer applies every event once', async () => {
    const queueKey = `${queuePrefixOfTest}:${CONSUMER_QUEUE}:id`;
    const master = await cluster.masterOf(queueKey);
    const masterClient = nodeClient(master.port);
    const replicaPort = Number(/slave0:ip=[^,]+,port=(\d+)/.exec(await masterClient.info('replication'))?.[1]);
    expect(cluster.nodes.find((n) => n.port === replicaPort)?.role).toBe('replica');
    const replicaClient = nodeClient(replicaPort);
    await replicaClient.call('READONLY'); // reads of the slot's keys on the replica, no MOVED

    // Batch A: relayed and replicated (WAIT: the replica acknowledged every write so far).
    const kept = Array.from({ length: 20 }, () => randomUUID());
    await publishAll(kept);
    const keptIds = await relayedRowIds(kept.length);
    expect(Number(await masterClient.call('WAIT', '1', '5000'))).toBe(1);
    expect(await existing(replicaClient, keptIds)).toBe(keptIds.length);

    // Replication cut for good: the replica cannot authenticate when it reconnects.
    await replicaClient.call('CONFIG', 'SET', 'masterauth', `lost-on-purpose-${process.pid}`);
    await replicaClient.call('CONFIG', 'SET', 'cluster-replica-validity-factor', '0');
    await masterClient.call('CLIENT', 'KILL', 'TYPE', 'replica');
    await waitFor(async () => /master_link_status:down/.test(await replicaClient.info('replication')), {
      timeoutMs: 5_000,
      what: 'the replica cut off from its master',
    });

    // Batch B: relayed to the master alone.
    const lost = Array.from({ length: 20 }, () => randomUUID());
    await publishAll(lost);
    const lostIds = (await relayedRowIds(kept.length + lost.length)).filter((id) => !keptIds.includes(id));
    expect(lostIds).toHaveLength(lost.length);
    expect(await existing(masterClient, lostIds)).toBe(lostIds.length);
    // Still cut off (no reconnection slipped through): the replica, soon the master, has none of them.
    expect(await replicaClient.info('replication')).toMatch(/master_link_status:down/);
    expect(await existing(replicaClient, lostIds)).toBe(0);
    const replaysBefore = producer.logs.filter((l) => l.msg === 'outbox rows relayed again after a Redis Cluster failover').length;

    masterClient.disconnect();
    await cluster.kill(master.port);
    await cluster.waitUntilHealthy();
    const promoted = await cluster.masterOf(queueKey);
    expect(promoted.port).toBe(replicaPort);

    // The relay saw the node leave and relayed its recent rows again: the lost jobs are back on the
    // promoted master, and the kept ones, still queued, were not added twice (job id = row id).
    await waitFor(async () => (await existing(replicaClient, lostIds)) === lostIds.length, {
      timeoutMs: 20_000,
      what: 'the lost jobs relayed again to the promoted master',
    });
    await relayedRowIds(kept.length + lost.length);
    const replays = producer.logs
      .filter((l) => l.msg === 'outbox rows relayed again after a Redis Cluster failover')
      .slice(replaysBefore);
    expect(Math.max(0, ...replays.map((l) => Number(l.rows)))).toBeGreaterThanOrEqual(lost.length);
    const connection = createQueueConnection({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: cluster.seeds });
    const queue = new Queue(CONSUMER_QUEUE, { connection, prefix: queuePrefixOfTest });
    try {
      expect(await queue.getJobCounts('wait', 'active', 'completed', 'failed', 'delayed')).toEqual({
        wait: kept.length + lost.length,
        active: 0,
        completed: 0,
        failed: 0,
        delayed: 0,
      });
    } finally {
      await queue.close();
      connection.disconnect();
    }

    // Now consuming: every event applied, each exactly once.
    if (!consumer.consumer) throw new Error('the consumer service has no event consumer');
    consumer.consumer.start();
    const members = [...kept, ...lost];
    const applied = async () => (await consumer.dataSource.query('SELECT user_id FROM applied')) as { user_id: string }[];
    await waitFor(async () => (await applied()).length >= members.length, { timeoutMs: 20_000, what: `all ${members.length} events applied` });
    const [processed] = await consumer.dataSource.query('SELECT count(*)::int AS n FROM processed_event');
    expect(processed.n).toBe(members.length);
    const rows = await applied();
    expect(rows).toHaveLength(members.length);
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set(members));
  });
});
