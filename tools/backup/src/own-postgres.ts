import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '@mate/testing';

const run = promisify(execFile);

/** How long the new server may take to start (pg_ctl -w waits at most this). */
const START_TIMEOUT_S = 60;

/**
 * A fresh PostgreSQL server of the test's own (initdb + pg_ctl in a temporary folder, on a free
 * port, trust authentication on 127.0.0.1): the restore target, never the shared server.
 */
export interface OwnPostgresServer {
  /** The server's `postgres` database, user postgres. */
  url: string;
  port: number;
  /** The postmaster's process id. */
  pid: number;
  /** The PostgreSQL programs it was started with (initdb, pg_ctl, pg_dump, …). */
  binDir: string;
  /** Stops the server (pg_ctl stop -m fast, its pid killed if that fails) and deletes its files. */
  stop(): Promise<void>;
}

/** PG_BIN, else the newest /usr/lib/postgresql/<major>/bin with an initdb (Debian's layout). */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors.length)
    throw new Error(
      `No initdb in ${root}/*/bin: install PostgreSQL (apt-get install -y postgresql) or set PG_BIN`,
    );
  return path.join(root, majors[0], 'bin');
}

export async function startOwnPostgresServer(): Promise<OwnPostgresServer> {
  const binDir = postgresBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'mate-backup-pg-'));
  const data = path.join(dir, 'data');
  // initdb refuses to run as root: then the server runs as the `postgres` OS user, in a folder it owns.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const pgTool = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(binDir, tool), ...args])
      : run(path.join(binDir, tool), args);

  const port = await freePort();
  let pid = 0;
  const killPostmaster = (signal: NodeJS.Signals) => {
    try {
      if (pid) process.kill(pid, signal);
    } catch {
      /* exited already */
    }
  };
  const killOnExit = () => killPostmaster('SIGQUIT');
  try {
    await pgTool('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await pgTool('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      String(START_TIMEOUT_S),
      '-o',
      options,
      'start',
    ]);
    pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // A test process that dies (a crash, a runner's kill) takes its server with it (immediate shutdown).
    process.once('exit', killOnExit);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const probe = new Client({ connectionString: url });
    await probe.connect();
    await probe.end();
    return {
      url,
      port,
      pid,
      binDir,
      async stop() {
        process.removeListener('exit', killOnExit);
        try {
          await pgTool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
        } catch {
          killPostmaster('SIGKILL');
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    process.removeListener('exit', killOnExit);
    killPostmaster('SIGKILL');
    let log = '';
    try {
      log = readFileSync(path.join(dir, 'server.log'), 'utf8');
    } catch {
      /* no log yet */
    }
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start an own PostgreSQL server in ${dir}: ${(e as Error).message}\n${log}`);
  }
}
