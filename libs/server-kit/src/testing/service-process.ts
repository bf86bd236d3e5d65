import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { WORKSPACE } from './managed-process';
import { waitFor } from './service-app';

export interface ServiceProcess {
  url: string;
  pid: number;
  /** What the process wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs a service's entry point in its own process: a built `dist/apps/<name>/main.js` as is, a
 * `main.ts` from source through SWC (with the @mate/* paths of tsconfig.base.json). Paths are
 * relative to the workspace root.
 */
function run(main: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  const fromSource = main.endsWith('.ts');
  return spawn(process.execPath, [...nodeArgs, ...(fromSource ? ['-r', '@swc-node/register'] : []), path.join(WORKSPACE, main), ...args], {
    cwd: WORKSPACE,
    env: { ...process.env, ...env, ...(fromSource ? { SWC_NODE_PROJECT: 'tsconfig.base.json' } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return () => output;
}

/**
 * Runs a one-off command of a service (`migrate`, `republish`, `grant-admin <email>`) to completion;
 * answers what it wrote (standard output and error, as they came).
 */
export async function runCommand(main: string, command: string, env: Record<string, string>, args: string[] = []): Promise<string> {
  const child = run(main, [command, ...args], env);
  const output = collectOutput(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${main} ${command} exited with ${code}:\n${output()}`);
  return output();
}

/**
 * Starts a service in its own process on `port` and waits until it answers its health check
 * (`/health/live` by default; `/health/ready` to wait for its database, Redis and workers too).
 * `nodeArgs` go to node before the script (a bench's `--cpu-prof --cpu-prof-dir=<dir>`).
 */
export async function startServiceProcess(
  main: string,
  port: number,
  env: Record<string, string>,
  { health = '/health/live', nodeArgs = [] }: { health?: '/health/live' | '/health/ready'; nodeArgs?: string[] } = {},
): Promise<ServiceProcess> {
  const child = run(main, [], { ...env, PORT: String(port), HOST: '127.0.0.1' }, nodeArgs);
  const output = collectOutput(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}:\n${output()}`);
        return fetch(`${url}${health}`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `${main} on port ${port}` },
    );
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    url,
    pid: child.pid ?? 0,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
