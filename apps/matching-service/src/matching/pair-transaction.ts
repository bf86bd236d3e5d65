import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { driverPool } from '@mate/server-kit';

/**
 * The advisory lock key of a pair, the same whichever side acts: 64 bits of a hash of the ordered
 * ids. A number computed here, so the transaction can open and take the lock in one round trip
 * (a simple query takes no parameters; a bigint literal needs none).
 */
export function pairLockKey(x: string, y: string): bigint {
  const [a, b] = x < y ? [x, y] : [y, x];
  return createHash('sha256').update(`matching-pair:${a}:${b}`).digest().readBigInt64BE(0);
}

/**
 * Runs `work` on one connection in a transaction that holds the pair's lock (transaction-scoped),
 * so everything done to one pair, whichever side acts, runs one after the other. BEGIN and the
 * lock are one round trip and COMMIT another: a like is three in all with its one statement.
 * Rolls back when `work` throws.
 */
export async function inPairTransaction<T>(
  dataSource: DataSource,
  x: string,
  y: string,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await driverPool(dataSource).connect();
  /** Set when the connection cannot be trusted any more: the pool then drops it. */
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${pairLockKey(x, y)})`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
