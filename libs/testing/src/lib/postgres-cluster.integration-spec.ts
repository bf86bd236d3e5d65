import { Client } from 'pg';
import { startPgBouncer, startPostgresPrimaryAndReplica, type OwnPgBouncer, type PostgresPrimaryAndReplica } from './postgres-cluster';

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a primary with a streaming replica, and PgBouncer, of the test’s own', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bouncer: OwnPgBouncer;

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    await cluster.createDatabase('harness');
    bouncer = await startPgBouncer({ upstreamPort: cluster.primaryPort, databases: ['harness'], poolMode: 'transaction', poolSize: 1 });
  }, 60_000);

  afterAll(async () => {
    await bouncer?.stop();
    await cluster?.stop();
  });

  it('replicates what the primary writes; a paused replay leaves the replica behind until resumed', async () => {
    await query(cluster.primaryUrl('harness'), 'CREATE TABLE t (n int); INSERT INTO t VALUES (1)');
    await cluster.caughtUp();
    expect(await query(cluster.replicaUrl('harness'), 'SELECT n FROM t')).toEqual([{ n: 1 }]);
    const [{ recovery }] = await query<{ recovery: boolean }>(cluster.replicaUrl('harness'), 'SELECT pg_is_in_recovery() AS recovery');
    expect(recovery).toBe(true);

    await cluster.pauseReplay();
    await query(cluster.primaryUrl('harness'), 'INSERT INTO t VALUES (2)');
    expect(await query(cluster.replicaUrl('harness'), 'SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }]);
    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect(await query(cluster.replicaUrl('harness'), 'SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('passes transactions through PgBouncer in transaction mode to the primary', async () => {
    const [{ n }] = await query<{ n: number }>(bouncer.url('harness'), 'SELECT count(*)::int AS n FROM t');
    expect(n).toBe(2);
    // Transaction pooling: two clients take turns on its one server connection.
    const [a, b] = await Promise.all([
      query<{ pid: number }>(bouncer.url('harness'), 'SELECT pg_backend_pid() AS pid'),
      query<{ pid: number }>(bouncer.url('harness'), 'SELECT pg_backend_pid() AS pid'),
    ]);
    expect(a[0].pid).toBe(b[0].pid);
  });

  it('kills one server at once; stop() ends only its own processes', async () => {
    const { replica } = cluster.pids;
    expect(replica).not.toBeNull();
    await cluster.kill('replica');
    expect(cluster.pids.replica).toBeNull();
    expect(alive(replica as number)).toBe(false);
    await expect(query(cluster.replicaUrl(), 'SELECT 1')).rejects.toThrow();
    expect(await query(cluster.primaryUrl(), 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
  });
});
