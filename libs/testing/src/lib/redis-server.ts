import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './maildev';

/** How long a started redis-server may take to answer PING. */
const START_TIMEOUT_MS = 10_000;

/**
 * A redis-server of the test's own, on a free port, that the test may kill and start again (fault
 * tests; never the shared Redis). Its data survives a restart (append-only file, fsync on every
 * write), as a production Redis with persistence would keep queued jobs.
 */
export interface OwnRedisServer {
  url: string;
  port: number;
  /** The running process's id, or null while it is stopped. */
  readonly pid: number | null;
  /** Kills the process at once (SIGKILL, like a crash) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same data, and waits until it answers. */
  start(): Promise<void>;
  /** Kills it and deletes its data. */
  stop(): Promise<void>;
}

export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mate-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  async function answers(): Promise<boolean> {
    // disconnectTimeout 0: ioredis arms a 2 s timer on disconnect that only a later 'close' clears,
    // and a refused connection has closed already, so each failed probe would hold the process 2 s.
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, disconnectTimeout: 0 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  }

  const server: OwnRedisServer = {
    url,
    port,
    get pid() {
      return child?.pid ?? null;
    },
    async start() {
      if (child) return;
      const started = spawn(
        'redis-server',
        ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
        { stdio: 'ignore' },
      );
      child = started;
      // A test process that dies (a crash, a runner's kill) takes its redis-server with it.
      const killOnExit = () => started.kill('SIGKILL');
      process.once('exit', killOnExit);
      started.once('exit', () => {
        process.removeListener('exit', killOnExit);
        if (child === started) child = null;
      });
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!(await answers())) {
        if (!child) throw new Error('redis-server exited at start');
        if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within ${START_TIMEOUT_MS} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      child = null;
    },
    async stop() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
