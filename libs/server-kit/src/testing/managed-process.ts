import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';

/**
 * A built app (`dist/apps/<name>/main.js`) in a child process of its own on a fixed port, which
 * can be killed like a crash (SIGKILL) and started again on the same port with the same
 * environment: how the fault suites (tools/chaos, tools/chaos-chat) run the platform. Everything
 * started here is ended by its own pid, also when the suite's process dies without stopping it.
 */

export const WORKSPACE = path.resolve(__dirname, '../../../..');

/** How long a started process may take to answer its health check (a loaded 2-core machine). */
const START_TIMEOUT_MS = 90_000;
/** SIGTERM, then SIGKILL after this long. */
const STOP_GRACE_MS = 8_000;
const MAX_OUTPUT = 20_000;

export interface ManagedProcess {
  name: string;
  port: number;
  url: string;
  /** The running process's id, or null while it is down. */
  readonly pid: number | null;
  /** Kills it at once (SIGKILL, like a crash) and resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it (same port, same environment) and resolves once its health check answers. */
  start(): Promise<void>;
  /** Ends it gently (SIGTERM, then SIGKILL). */
  stop(): Promise<void>;
  /** The last output of the process, for a failure's message. */
  output(): string;
}

const living = new Set<ChildProcess>();
let exitHookInstalled = false;
/** A suite process that ends without stopping its children (a crash, an interrupted run) kills them with it. */
export function killOnExit(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of living) c.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const c of living) c.kill('SIGKILL');
      process.exit(130);
    });
  }
}

export function builtMain(name: string): string {
  const main = path.join(WORKSPACE, 'dist/apps', name, 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: build it first (nx run ${name}:build)`);
  return main;
}

export async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The resident set of a process in bytes (Linux /proc), or null when it is gone. */
export function rssOf(pid: number | null): number | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface ProcessSpec {
  name: string;
  /** The command line after `node` (a built main, maildev's bin). */
  args: string[];
  env: Record<string, string>;
  port: number;
  /** The path answering 200 once the process is ready (`/health/ready`, `/health`, `/email`). */
  health: string;
  /** A folder for `<name>.log`: every start's output, appended. */
  logDir?: string;
}

/** Starts the process of `spec` and resolves once its health check answers. */
export async function startManaged(spec: ProcessSpec): Promise<ManagedProcess> {
  const url = `http://127.0.0.1:${spec.port}`;
  const health = `${url}${spec.health}`;
  let child: ChildProcess | null = null;
  let output = '';
  let logFile: WriteStream | null = null;
  if (spec.logDir) {
    mkdirSync(spec.logDir, { recursive: true });
    logFile = createWriteStream(path.join(spec.logDir, `${spec.name}.log`), { flags: 'a' });
  }

  const managed: ManagedProcess = {
    name: spec.name,
    port: spec.port,
    url,
    get pid() {
      return child?.pid ?? null;
    },
    async start() {
      if (child) return;
      const started = spawn(process.execPath, spec.args, {
        cwd: WORKSPACE,
        env: { ...process.env, ...spec.env, PORT: String(spec.port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      killOnExit(started);
      logFile?.write(`--- ${new Date().toISOString()} start (pid ${started.pid})\n`);
      const collect = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-MAX_OUTPUT);
        logFile?.write(chunk);
      };
      started.stdout?.on('data', collect);
      started.stderr?.on('data', collect);
      started.once('exit', (code, signal) => {
        logFile?.write(`--- ${new Date().toISOString()} exit ${signal ?? code}\n`);
        if (child === started) child = null;
      });
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!(await answers(health))) {
        if (child !== started) throw new Error(`${spec.name} exited at start:\n${output}`);
        if (Date.now() > deadline) {
          await managed.kill();
          throw new Error(`${spec.name} did not answer ${health} within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      if (child === running) child = null;
    },
    async stop() {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      const force = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
      running.kill('SIGTERM');
      await exited;
      clearTimeout(force);
      if (child === running) child = null;
    },
    output: () => output,
  };
  await managed.start();
  return managed;
}

/** Runs `node <args>` to completion; rejects with its output when it fails. */
export async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, args, {
    cwd: WORKSPACE,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}
