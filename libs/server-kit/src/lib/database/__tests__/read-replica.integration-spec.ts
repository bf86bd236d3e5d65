import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import Redis from 'ioredis';
import pino from 'pino';
import { SERVICES } from '@mate/contracts';
import { DataSource } from 'typeorm';
import {
  createTestRedisNamespace,
  startPgBouncer,
  startPostgresPrimaryAndReplica,
  type OwnPgBouncer,
  type PostgresPrimaryAndReplica,
} from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { loadEnv, DatabaseEnv } from '../../config/config';
import { markTransactionPooled } from '../named-query';
import { ReadReplica } from '../read-replica';

jest.setTimeout(60_000);

const MEMBER_STATEMENT = { name: 'rr_of_member', text: 'SELECT count(*)::int AS n FROM note WHERE member = $1', values: [] as unknown[] };
const of = (member: string) => ({ ...MEMBER_STATEMENT, values: [member] });

/**
 * ReadReplica on a primary and a streaming replica of the test's own, each behind a PgBouncer in
 * transaction pooling (DATABASE_POOLING=transaction applies to both URLs).
 */
describe('ReadReplica through PgBouncer (transaction pooling) on both sides', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bouncers: OwnPgBouncer[];
  let dataSource: DataSource;
  let redis: Redis;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let reads: ReadReplica;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    await cluster.createDatabase('rr');
    bouncers = await Promise.all(
      [cluster.primaryPort, cluster.replicaPort].map((upstreamPort) =>
        startPgBouncer({ upstreamPort, databases: ['rr'], poolMode: 'transaction', poolSize: 2 }),
      ),
    );
    const [primary, replica] = bouncers;
    ns = await createTestRedisNamespace('read_replica');
    const env = loadEnv(DatabaseEnv, {
      DATABASE_URL: primary.url('rr'),
      DATABASE_POOLING: 'transaction',
      DATABASE_READ_URL: replica.url('rr'),
      KEY_PREFIX: ns.prefix,
    });
    dataSource = await new DataSource({ type: 'postgres', url: env.DATABASE_URL }).initialize();
    markTransactionPooled(dataSource);
    await dataSource.query('CREATE TABLE note (member text NOT NULL)');
    redis = new Redis(ns.url);
    const sink = new Writable({
      write(line: Buffer, _encoding, done) {
        logged.push(JSON.parse(line.toString()));
        done();
      },
    });
    reads = new ReadReplica(dataSource, env, redis, pino({ level: 'info' }, sink), SERVICES.matching);
    await cluster.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await cluster?.resumeReplay().catch(() => undefined);
    await reads?.onApplicationShutdown();
    await dataSource?.destroy();
    await redis?.quit();
    await ns?.cleanup();
    await Promise.all((bouncers ?? []).map((b) => b.stop()));
    await cluster?.stop();
  });

  it('reads the replica, the same named statement many times at once through its pooler', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => reads.readFrom(null, of('nobody'))));
    expect(answers.every((a) => a.server === 'replica' && a.rows[0].n === 0)).toBe(true);
  });

  it('sends a member who wrote to the primary until the replica has replayed their write; others read the replica', async () => {
    const [writer, other] = [randomUUID(), randomUUID()];
    await cluster.pauseReplay();
    await dataSource.query('INSERT INTO note (member) VALUES ($1), ($2)', [writer, other]);
    await reads.wrote(writer);
    expect(await reads.readFrom(writer, of(writer))).toEqual({ rows: [{ n: 1 }], server: 'primary' });
    // `other`'s row was not their own write (no wrote()): the replica answers, without it.
    expect(await reads.readFrom(other, of(other))).toEqual({ rows: [{ n: 0 }], server: 'replica' });

    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect(await reads.readFrom(writer, of(writer))).toEqual({ rows: [{ n: 1 }], server: 'replica' });
    // Two writes finishing out of order: the earlier position does not replace the later one.
    const key = `${ns.prefix}:own-write:${SERVICES.matching}:${writer}`;
    const later = (BigInt((await redis.get(key)) as string) + 1_000_000_000n).toString();
    await redis.set(key, later);
    await reads.wrote(writer);
    expect(await redis.get(key)).toBe(later);
    expect((await reads.readFrom(writer, of(writer))).server).toBe('primary');

    // Their erasure (the kit's user.deleted chain) leaves nothing of them in Redis.
    await reads.forget(writer);
    expect(await redis.exists(key)).toBe(0);
    expect((await reads.readFrom(writer, of(writer))).server).toBe('replica');
  });

  it('answers an error of the statement itself from the primary, and keeps reading the replica', async () => {
    const before = logged.length;
    await expect(reads.read(null, { text: 'SELECT 1 / 0', values: [] })).rejects.toThrow('division by zero');
    expect((await reads.readFrom(null, of('nobody'))).server).toBe('replica');
    expect(logged.length).toBe(before);
  });

  it('runs a read-only transaction on the replica, then on the primary once the replica is gone (one log line), then on the replica once it is back', async () => {
    const onReplica = await reads.inReadOnlyTransaction(null, async (query) => {
      await query('SET LOCAL jit = off');
      return query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    });
    expect(onReplica).toEqual([{ standby: true }]);

    await cluster.kill('replica');
    const before = logged.length;
    const reads3 = await Promise.all([1, 2, 3].map(() => reads.readFrom(null, of('nobody'))));
    expect(reads3.map((r) => r.server)).toEqual(['primary', 'primary', 'primary']);
    const onPrimary = await reads.inReadOnlyTransaction(null, (query) =>
      query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby'),
    );
    expect(onPrimary).toEqual([{ standby: false }]);
    const lines = logged.slice(before).filter((l) => l.msg === 'read replica did not answer; reading the primary');
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe(40);

    // Back: a probe (every REPLICA_RETRY_AFTER_MS) finds it answering, and reads go to it again.
    await cluster.start('replica');
    await waitFor(async () => (await reads.readFrom(null, of('nobody'))).server === 'replica', { what: 'reads on the replica again' });
    expect(logged.some((l) => l.msg === 'read replica answers again; reading it')).toBe(true);
  });
});
