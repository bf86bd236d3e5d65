import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './maildev';

/** Where Debian puts PostgreSQL 15's programs (initdb, postgres, pg_basebackup). */
const PG_BIN = process.env.TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PGBOUNCER = process.env.TEST_PGBOUNCER ?? '/usr/sbin/pgbouncer';
/** How long a started server may take to accept connections, or a standby to stream. */
const START_TIMEOUT_MS = 30_000;

/** The uid and gid to run PostgreSQL's programs with: they refuse root, so root runs them as `postgres`. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A temporary folder the server user owns. */
function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Runs one of PostgreSQL's programs to completion as the server user; its output is in the error. */
function runAsServerUser(program: string, args: string[]): void {
  const user = serverUser();
  try {
    execFileSync(program, args, { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' }, ...(user ?? {}) });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(`${program} failed: ${err.stderr?.toString().trim() || err.message}`);
  }
}

/** A long-running program as the server user, killed with the test process if that dies first. */
function spawnAsServerUser(program: string, args: string[]): ChildProcess {
  const user = serverUser();
  const child = spawn(program, args, { stdio: 'ignore', env: { ...process.env, LC_ALL: 'C' }, ...(user ?? {}) });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  return child;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = START_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function queryOnce<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

function urlOf(port: number, database = 'postgres'): string {
  return `postgres://postgres@127.0.0.1:${port}/${database}`;
}

/** Ends a process and waits until it has exited (at once when it has already). */
async function ended(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

export type PostgresNode = 'primary' | 'replica';

/**
 * A PostgreSQL primary and a streaming replica of the test's own (never the shared server), each on
 * a free port in its own temporary folder, trust on loopback only.
 */
export interface PostgresPrimaryAndReplica {
  primaryPort: number;
  replicaPort: number;
  /** The primary's URL for a database (default `postgres`). */
  primaryUrl(database?: string): string;
  replicaUrl(database?: string): string;
  /** The primary's and the replica's postmaster pids (null once killed or stopped). */
  readonly pids: Record<PostgresNode, number | null>;
  /** Creates a database on the primary (the replica gets it by replication). */
  createDatabase(name: string): Promise<void>;
  /** Stops applying WAL on the replica (it keeps receiving it): the replica lags from now on. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has applied everything the primary had written when called. */
  caughtUp(): Promise<void>;
  /** An immediate shutdown of one server (SIGQUIT: every backend ends, no checkpoint, like a crash); waits for it. */
  kill(which: PostgresNode): Promise<void>;
  /** Starts a killed server again on its port with its data (a standby resumes streaming); waits until it answers. */
  start(which: PostgresNode): Promise<void>;
  /** Shuts both down (only their own processes) and deletes their folders. */
  stop(): Promise<void>;
}

/**
 * Starts a primary (`wal_level=replica`, WAL senders, `hot_standby`), takes a `pg_basebackup -R`
 * of it, starts that as a hot standby and waits until `pg_stat_replication` shows it streaming.
 * fsync is off: the folders are thrown away. A few seconds.
 */
export async function startPostgresPrimaryAndReplica(): Promise<PostgresPrimaryAndReplica> {
  const dir = ownedTempDir('mate-pg-');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const processes: Record<PostgresNode, ChildProcess | null> = { primary: null, replica: null };

  const serverArgs = (dataDir: string, port: number) => [
    '-D', dataDir, '-p', String(port), '-k', dir,
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'wal_level=replica',
    '-c', 'max_wal_senders=4',
    '-c', 'hot_standby=on',
    '-c', 'hot_standby_feedback=on',
    '-c', 'fsync=off',
    '-c', 'full_page_writes=off',
    '-c', 'shared_buffers=16MB',
    '-c', 'max_connections=60',
    '-c', 'wal_receiver_status_interval=1s',
  ];

  async function start(which: PostgresNode, dataDir: string, port: number) {
    const child = spawnAsServerUser(join(PG_BIN, 'postgres'), serverArgs(dataDir, port));
    processes[which] = child;
    child.once('exit', () => {
      if (processes[which] === child) processes[which] = null;
    });
    await until(`PostgreSQL ${which} on port ${port}`, async () => {
      if (!processes[which]) throw new Error(`PostgreSQL ${which} exited at start`);
      return (await queryOnce<{ ok: number }>(urlOf(port), 'SELECT 1 AS ok'))[0]?.ok === 1;
    });
  }

  const stopAll = async () => {
    await Promise.all([ended(processes.replica, 'SIGQUIT'), ended(processes.primary, 'SIGQUIT')]);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    runAsServerUser(join(PG_BIN, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions']);
    await start('primary', primaryDir, primaryPort);
    runAsServerUser(join(PG_BIN, 'pg_basebackup'), [
      '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir,
      '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync',
    ]);
    await start('replica', replicaDir, replicaPort);
    await until('the replica streaming', async () => {
      const rows = await queryOnce<{ n: number }>(
        urlOf(primaryPort),
        "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'",
      );
      return rows[0]?.n === 1;
    });
  } catch (e) {
    await stopAll();
    throw e;
  }

  const cluster: PostgresPrimaryAndReplica = {
    primaryPort,
    replicaPort,
    primaryUrl: (database) => urlOf(primaryPort, database),
    replicaUrl: (database) => urlOf(replicaPort, database),
    get pids() {
      return { primary: processes.primary?.pid ?? null, replica: processes.replica?.pid ?? null };
    },
    async createDatabase(name) {
      await queryOnce(urlOf(primaryPort), `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    },
    async pauseReplay() {
      await queryOnce(urlOf(replicaPort), 'SELECT pg_wal_replay_pause()');
      await until('replay paused', async () => {
        const [row] = await queryOnce<{ state: string }>(urlOf(replicaPort), 'SELECT pg_get_wal_replay_pause_state() AS state');
        return row?.state === 'paused';
      });
    },
    async resumeReplay() {
      await queryOnce(urlOf(replicaPort), 'SELECT pg_wal_replay_resume()');
    },
    async caughtUp() {
      const [{ lsn }] = await queryOnce<{ lsn: string }>(urlOf(primaryPort), 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
      await until('the replica caught up', async () => {
        const [row] = await queryOnce<{ behind: boolean }>(
          urlOf(replicaPort),
          `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
        );
        return row?.behind === false;
      });
    },
    async kill(which) {
      await ended(processes[which], 'SIGQUIT');
    },
    async start(which) {
      if (processes[which]) return;
      await (which === 'primary' ? start('primary', primaryDir, primaryPort) : start('replica', replicaDir, replicaPort));
    },
    stop: stopAll,
  };
  return cluster;
}

export interface PgBouncerOptions {
  /** The PostgreSQL port behind it (on 127.0.0.1). */
  upstreamPort: number;
  /** The databases it serves (each under its own name); `'*'` serves any database. */
  databases: readonly string[] | '*';
  poolMode: 'transaction' | 'session';
  /** Server connections per database and user (`default_pool_size`); 2 unless given. */
  poolSize?: number;
}

export interface OwnPgBouncer {
  port: number;
  /** Its URL for a database it serves. */
  url(database: string): string;
  readonly pid: number | null;
  /** Stops it (its own process only) and deletes its folder. */
  stop(): Promise<void>;
}

/**
 * A PgBouncer of the test's own on a free port (ini and userlist in a temporary folder, trust,
 * run as the server user), in front of `upstreamPort`; resolves once it answers through to
 * PostgreSQL. Debian's 1.18 has no `max_prepared_statements`: named prepared statements break
 * under `transaction` pooling, as they would in production.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<OwnPgBouncer> {
  const dir = ownedTempDir('mate-pgbouncer-');
  const port = await freePort();
  const upstream = `host=127.0.0.1 port=${options.upstreamPort}`;
  const databases =
    options.databases === '*' ? [`* = ${upstream}`] : options.databases.map((name) => `${name} = ${upstream} dbname=${name}`);
  const ini = [
    '[databases]',
    ...databases,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `pool_mode = ${options.poolMode}`,
    `default_pool_size = ${options.poolSize ?? 2}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits',
    // A server that was down is tried again after 1 s (15 by default), so a restart test is quick.
    'server_login_retry = 1',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    'admin_users = postgres',
    '',
  ].join('\n');
  const user = serverUser();
  for (const [name, text] of [
    ['pgbouncer.ini', ini],
    ['userlist.txt', '"postgres" ""\n'],
  ] as const) {
    writeFileSync(join(dir, name), text);
    if (user) chownSync(join(dir, name), user.uid, user.gid);
  }
  let child: ChildProcess | null = spawnAsServerUser(PGBOUNCER, [join(dir, 'pgbouncer.ini')]);
  const started = child;
  started.once('exit', () => {
    if (child === started) child = null;
  });
  const stop = async () => {
    await ended(child, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const probeDatabase = options.databases === '*' ? 'postgres' : options.databases[0];
  try {
    await until(`PgBouncer on port ${port}`, async () => {
      if (!child) throw new Error('pgbouncer exited at start');
      return (await queryOnce<{ ok: number }>(urlOf(port, probeDatabase), 'SELECT 1 AS ok'))[0]?.ok === 1;
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    port,
    url: (database) => urlOf(port, database),
    get pid() {
      return child?.pid ?? null;
    },
    stop,
  };
}
