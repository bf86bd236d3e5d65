import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** The `pg` pool under TypeORM's data source, for the hot paths that talk to it directly. */
export function driverPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/** The data sources whose URL is a pooler in transaction pooling (DATABASE_POOLING=transaction). */
const transactionPooled = new WeakSet<DataSource>();

/** Marks a data source as reaching PostgreSQL through a transaction pooler (DatabaseModule does). */
export function markTransactionPooled(dataSource: DataSource): void {
  transactionPooled.add(dataSource);
}

/**
 * Whether the data source's connections are a transaction pooler's (PgBouncer, pool_mode =
 * transaction): each transaction may run on another server connection, so nothing a connection
 * keeps between transactions (named prepared statements, SQL PREPARE, SET, session advisory locks,
 * LISTEN, temporary tables) may be relied on (docs/adr/0033).
 */
export function isTransactionPooled(dataSource: DataSource): boolean {
  return transactionPooled.has(dataSource);
}

/**
 * A statement as `pg` runs it: named (prepared once per connection, see namedQuery) on a direct
 * connection; unnamed through a transaction pooler, where `pg`'s memory of what it prepared on a
 * connection does not hold (Debian's PgBouncer 1.18 has no `max_prepared_statements`): Parse, Bind
 * and Execute then travel together and run on one server connection.
 */
export function preparedStatement(dataSource: DataSource, name: string, text: string, values: unknown[]): QueryConfig {
  return isTransactionPooled(dataSource) ? { text, values } : { name, text, values };
}

/**
 * Runs `text` as a named prepared statement on the driver's pool: parsed once per connection, and
 * after five runs PostgreSQL may keep one generic plan instead of planning each call. For the
 * statements of every suggestion: unnamed, the ranking context's custom plans took 13 ms a call
 * at a million members, the generic plan 4.5 ms (bench:suggestions). Through a transaction pooler,
 * an unnamed statement (preparedStatement).
 */
export async function namedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  return (await driverPool(dataSource).query<T>(preparedStatement(dataSource, name, text, values))).rows;
}
