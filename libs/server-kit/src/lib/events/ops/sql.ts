import type { DataSource } from 'typeorm';

/**
 * Runs one SQL statement and answers its rows. The operations below take this rather than a
 * TypeORM DataSource so the CLI can use a plain `pg` client per producer database, and the
 * services their own DataSource.
 */
export type SqlQuery = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export function sqlOf(dataSource: DataSource): SqlQuery {
  return (sql, params) => dataSource.query(sql, params);
}

/** The smallest part of `pg.Client`/`pg.Pool` this needs (so server-kit does not depend on pg's types). */
export interface PgQueryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export function sqlOfPg(client: PgQueryable): SqlQuery {
  return async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[];
}
