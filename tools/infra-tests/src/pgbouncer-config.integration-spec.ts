import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, startPostgresPrimaryAndReplica, type PostgresPrimaryAndReplica } from '@mate/testing';
import { waitFor } from '@mate/server-kit/testing';
import { discoverApps, rootPath } from './lib/workspace';

/**
 * Issue 29: overlays/distributed-data's PgBouncer runs with the configuration its init container
 * renders (pgbouncer/render-config.sh) from the services' database URLs. Here that configuration
 * is rendered for a PostgreSQL primary and streaming replica of the test's own and run by a real
 * PgBouncer: each service's database reaches the primary, each reader's `<db>_read` the replica,
 * the password comes from the URLs, and idle clients hold no server connection (transaction
 * pooling). Two lines are changed for the machine: the listening port, and the user list's path.
 */
const OVERLAY = rootPath('k8s/overlays/distributed-data');
const PGBOUNCER = process.env.TEST_PGBOUNCER ?? '/usr/sbin/pgbouncer';
const READERS = ['matching-service', 'chat-service', 'call-service', 'admin-service'];
const PASSWORD = 'c0ffee5eed0f1a2b3c4d5e6f70819293';
const services = discoverApps().filter((a) => a.database);

jest.setTimeout(120_000);

/** PgBouncer, as PostgreSQL's programs, refuses to run as root: root runs it as `postgres`. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** `max_prepared_statements` came with PgBouncer 1.21 (the overlay's image has it; Debian's 1.18 does not). */
function knowsPreparedStatements(): boolean {
  const version = /PgBouncer (\d+)\.(\d+)/.exec(execFileSync(PGBOUNCER, ['--version'], { encoding: 'utf8' }));
  return Boolean(version) && (Number(version?.[1]) > 1 || Number(version?.[2]) >= 21);
}

async function connect(port: number, database: string, password = PASSWORD): Promise<Client> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database });
  await client.connect();
  return client;
}

async function one<T>(port: number, database: string, sql: string): Promise<T> {
  const client = await connect(port, database);
  try {
    return (await client.query(sql)).rows[0] as T;
  } finally {
    await client.end();
  }
}

describe('k8s overlays/distributed-data: PgBouncer with the configuration render-config.sh writes', () => {
  let pg: PostgresPrimaryAndReplica;
  let bouncer: ChildProcess | undefined;
  let port: number;
  let log = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-rendered-'));

  beforeAll(async () => {
    expect(fs.existsSync(PGBOUNCER)).toBe(true);
    pg = await startPostgresPrimaryAndReplica();
    for (const { database } of services) await pg.createDatabase(database as string);
    await pg.caughtUp();

    // The URLs as mate-secrets would hold them: role and password, the primary or the replica.
    const env: Record<string, string> = {};
    for (const { name, database } of services) {
      const variable = name.toUpperCase().replace(/-/g, '_');
      env[`${variable}_DATABASE_URL`] =
        `postgres://postgres:${PASSWORD}@127.0.0.1:${pg.primaryPort}/${database}`;
      if (READERS.includes(name))
        env[`${variable}_DATABASE_REPLICA_URL`] =
          `postgres://postgres:${PASSWORD}@127.0.0.1:${pg.replicaPort}/${database}`;
    }
    const rendered = spawnSync('sh', [path.join(OVERLAY, 'pgbouncer/render-config.sh')], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        CONFIG_DIR: dir,
        TEMPLATE_DIR: path.join(OVERLAY, 'pgbouncer'),
        ...env,
      },
    });
    expect([rendered.status, rendered.stderr]).toEqual([0, '']);

    port = await freePort();
    const ini = fs.readFileSync(path.join(dir, 'pgbouncer.ini'), 'utf8');
    const local = ini
      .replace(/^listen_port = 6432$/m, `listen_port = ${port}`)
      .replace(/^auth_file = \/config\/userlist\.txt$/m, `auth_file = ${path.join(dir, 'userlist.txt')}`)
      .replace(/^max_prepared_statements = .*$/m, (line) => (knowsPreparedStatements() ? line : ''));
    expect(local).not.toBe(ini);
    fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), local);
    const user = serverUser();
    if (user)
      for (const f of ['', 'pgbouncer.ini', 'userlist.txt'])
        fs.chownSync(path.join(dir, f), user.uid, user.gid);

    const started = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
    });
    bouncer = started;
    started.stdout?.on('data', (d) => (log += d));
    started.stderr?.on('data', (d) => (log += d));
    await waitFor(
      async () => {
        if (started.exitCode !== null) throw new Error(`pgbouncer exited: ${log}`);
        const ok = await one<{ ok: number }>(port, 'mate_auth', 'SELECT 1 AS ok').catch(() => undefined);
        return ok?.ok === 1;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'pgbouncer answering' },
    );
  });

  afterAll(async () => {
    if (bouncer && bouncer.exitCode === null) {
      const exited = new Promise((resolve) => bouncer?.once('exit', resolve));
      bouncer.kill('SIGTERM');
      await exited;
    }
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("routes every service's database to the primary and each reader's <db>_read to its replica", async () => {
    for (const { name, database } of services) {
      const primary = await one<{ db: string; standby: boolean }>(
        port,
        database as string,
        'SELECT current_database() AS db, pg_is_in_recovery() AS standby',
      );
      expect({ name, ...primary }).toEqual({ name, db: database, standby: false });
      const read = await one<{ db: string; standby: boolean }>(
        port,
        `${database}_read`,
        'SELECT current_database() AS db, pg_is_in_recovery() AS standby',
      ).catch((e: Error) => ({ error: e.message }));
      expect({ name, read }).toEqual({
        name,
        read: READERS.includes(name)
          ? { db: database, standby: true }
          : { error: expect.stringMatching(/no such database/) },
      });
    }
  });

  it('what a service writes through its database, it reads back through <db>_read once replicated', async () => {
    const writer = await connect(port, 'mate_chat');
    try {
      await writer.query('CREATE TABLE pooled_note (id int PRIMARY KEY, text text)');
      await writer.query("INSERT INTO pooled_note VALUES (1, 'through PgBouncer')");
    } finally {
      await writer.end();
    }
    await pg.caughtUp();
    expect(await one(port, 'mate_chat_read', 'SELECT text FROM pooled_note WHERE id = 1')).toEqual({
      text: 'through PgBouncer',
    });
  });

  it('asks for the password of the service URLs and refuses another', async () => {
    await expect(connect(port, 'mate_matching', 'not-the-password')).rejects.toThrow(/authentication failed/);
  });

  it('pools by transaction: more idle clients than the pool has server connections all get answers', async () => {
    // admin-service's primary pool: 5 server connections (+ 5 in reserve). In session pooling the
    // eleventh connected client would wait for one of the others to leave.
    const pool = Number(
      /^mate_admin = .* pool_size=(\d+)$/m.exec(
        fs.readFileSync(path.join(dir, 'pgbouncer.ini'), 'utf8'),
      )?.[1],
    );
    expect(pool).toBe(5);
    const clients = await Promise.all(Array.from({ length: 3 * pool }, () => connect(port, 'mate_admin')));
    try {
      for (const client of clients) await client.query('SELECT 1');
      const answered = await Promise.all(
        clients.map(async (c) => (await c.query('SELECT 2 AS two')).rows[0].two),
      );
      expect(answered).toEqual(clients.map(() => 2));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
