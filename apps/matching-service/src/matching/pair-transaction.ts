import { createHash } from 'node:crypto';
import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { driverPool, isTransactionPooled } from '@mate/server-kit';

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
 * Takes the pair's lock in the caller's transaction, held until it ends: the lock likes and passes
 * take (`onceUnderPairLock`), so what the caller then writes to the pair runs before or after them.
 */
export async function lockPair(manager: EntityManager, x: string, y: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock($1::bigint)', [pairLockKey(x, y).toString()]);
}

/** A statement for `onceUnderPairLock`: its name as a prepared statement, its text, its values. */
export interface PairStatement {
  /** An SQL identifier (lower case, no quotes), unique among the service's prepared statements. */
  name: string;
  /** Every parameter cast in the text (`$1::uuid`), so PREPARE infers its types. */
  text: string;
  values: readonly (string | number | boolean | Date | object | null)[];
}

/** The connections on which each statement is prepared (SQL PREPARE lives as long as the connection). */
const prepared = new WeakMap<PoolClient, Set<string>>();

/** A value as an SQL literal: EXECUTE takes no parameters. Objects are JSON (the outbox envelopes). */
function literal(value: PairStatement['values'][number]): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  return escapeLiteral(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The statement's text with each parameter (`$n` outside quoted text and comments) replaced by its value as a
 * literal: what is sent when SQL PREPARE cannot be relied on (transaction pooling).
 */
export function withLiterals(statement: PairStatement): string {
  return statement.text.replace(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\/|\$(\d+)/g, (token, n: string | undefined) => {
    if (n === undefined) return token;
    const index = Number(n) - 1;
    if (index < 0 || index >= statement.values.length) throw new Error(`${statement.name}: no value for $${n}`);
    return literal(statement.values[index]);
  });
}

/**
 * One statement in a transaction that holds the pair's lock (transaction-scoped), so everything
 * done to one pair, whichever side acts, runs one after the other; in one round trip (it was three:
 * BEGIN with the lock, the statement, COMMIT): one simple query,
 * `BEGIN; SELECT pg_advisory_xact_lock(k); EXECUTE <statement>(<values>); COMMIT`. In READ
 * COMMITTED each statement of a simple query takes its own snapshot, so the statement's is taken
 * after the lock, exactly as when the lock is a round trip of its own (the other side's committed
 * swipe and a block applied under the same lock are seen). The statement is prepared with SQL
 * `PREPARE` (in the same round trip, the first time on a connection), so it is planned as a named
 * prepared statement is; its values travel as escaped literals.
 *
 * The transaction commits before the caller reads the answer: only for a statement that writes
 * nothing when the caller then refuses (LIKE_SQL and the pass insert only when the pair may swipe).
 * Answers the statement's rows. A failure rolls back; a failure in the round trip that prepared
 * the statement drops the connection (whether PREPARE itself ran is then unknown).
 *
 * Through a transaction pooler (DATABASE_POOLING=transaction) a prepared statement is the server
 * connection's, and the next transaction may run on another one: the statement's own text, its
 * values as literals, is sent in the same one round trip instead (planned on each run).
 */
export async function onceUnderPairLock<T>(dataSource: DataSource, x: string, y: string, statement: PairStatement): Promise<T[]> {
  if (isTransactionPooled(dataSource)) return pooledUnderPairLock<T>(dataSource, x, y, statement);
  const client = await driverPool(dataSource).connect();
  let names = prepared.get(client);
  if (!names) prepared.set(client, (names = new Set()));
  const preparing = !names.has(statement.name);
  let broken: Error | undefined;
  try {
    const execute = `EXECUTE ${statement.name}(${statement.values.map(literal).join(', ')})`;
    const text = `${preparing ? `PREPARE ${statement.name} AS ${statement.text};\n` : ''}BEGIN; SELECT pg_advisory_xact_lock(${pairLockKey(x, y)}); ${execute}; COMMIT`;
    const results = (await client.query(text)) as unknown as QueryResult[];
    if (preparing) names.add(statement.name);
    // PREPARE, BEGIN, the lock, then the statement's result.
    return results[preparing ? 3 : 2].rows as T[];
  } catch (err) {
    if (preparing) broken = err instanceof Error ? err : new Error(String(err));
    else {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * onceUnderPairLock through a transaction pooler: `BEGIN; SELECT pg_advisory_xact_lock(k);
 * <statement with literals>; COMMIT`, one simple query, so one server connection runs all of it.
 */
async function pooledUnderPairLock<T>(dataSource: DataSource, x: string, y: string, statement: PairStatement): Promise<T[]> {
  const client = await driverPool(dataSource).connect();
  let broken: Error | undefined;
  try {
    const text = `BEGIN; SELECT pg_advisory_xact_lock(${pairLockKey(x, y)}); ${withLiterals(statement)}; COMMIT`;
    const results = (await client.query(text)) as unknown as QueryResult[];
    // BEGIN, the lock, then the statement's result.
    return results[2].rows as T[];
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
