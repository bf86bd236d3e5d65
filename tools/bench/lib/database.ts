// What every bench needs to stay on this machine and to make (and drop) its own databases. Shared
// by tools/bench/events and tools/bench/photos; tools/scripts/lib/platform.mjs has a withDatabase
// too, but it is an untyped ES module the benches (TypeScript, loaded as CommonJS by
// @swc-node/register) cannot import without a declaration file of its own.
import { Client } from 'pg';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Refuses to run a bench against anything but this machine: it creates and drops databases. */
export function requireLoopback(name: string, url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`${name} must point at this machine (127.0.0.1), not ${host}`);
}

/** The same server URL, naming another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on its own connection (CREATE/DROP DATABASE cannot run inside a pool's transaction). */
export async function adminQuery<T = unknown>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}
