import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** The repository root (the seeder runs from there, as `npm run seed` does). */
export const ROOT = path.resolve(__dirname, '../../..');
export const SEED_SCRIPT = path.join(ROOT, 'tools/seed/seed.mjs');

/**
 * Runs an ES module snippet (the seeder is plain Node ESM, which Jest's CommonJS runtime does not
 * load) and returns what it printed as JSON. `lib` is the seeder's lib folder, as a file URL.
 */
export function runModule<T>(source: string): T {
  const lib = `file://${path.join(ROOT, 'tools/seed/lib')}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source.replaceAll('$LIB', lib)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`module snippet failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One query on its own connection (the seeder's databases, from outside the seeder). */
export async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs a command to its end without blocking the test's event loop. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node tools/seed/seed.mjs <args>`. */
export function runSeeder(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run(process.execPath, [SEED_SCRIPT, ...args], env);
}
