import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@mate/server-kit/testing';

const WORKSPACE = path.resolve(__dirname, '../../../../..');

export interface ServiceProcess {
  url: string;
  pid: number;
  /** What the process wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs a service's main.ts from source: SWC compiles it, with the @mate/* paths of tsconfig.base.json. */
function run(main: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', path.join(WORKSPACE, main), ...args], {
    cwd: WORKSPACE,
    env: { ...process.env, ...env, SWC_NODE_PROJECT: 'tsconfig.base.json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a one-off command of a service (`migrate`) to completion. */
export async function runCommand(main: string, command: string, env: Record<string, string>): Promise<void> {
  const child = run(main, [command], env);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${main} ${command} exited with ${code}:\n${output}`);
}

/** Starts a service's main.ts in its own process and waits until it answers /health/live. */
export async function startServiceProcess(main: string, port: number, env: Record<string, string>): Promise<ServiceProcess> {
  const child = run(main, [], { ...env, PORT: String(port), HOST: '127.0.0.1' });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}:\n${output}`);
        return fetch(`${url}/health/live`).then(
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
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
