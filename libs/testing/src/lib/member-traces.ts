import Redis from 'ioredis';

/** Anything that runs SQL and answers rows (a TypeORM DataSource or EntityManager, a pg client wrapper). */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Where a member id still appears in a database: every column of every table of the public schema,
 * cast to text and searched for the id (what `npm run gdpr -- verify` scans, issue 12), as
 * `table.column`, sorted. The erasure tests of every service assert it is empty.
 */
export async function columnsHolding(db: SqlRunner, userId: string): Promise<string[]> {
  const columns = (await db.query(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.column_name`,
  )) as { table_name: string; column_name: string }[];
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM "${table}" WHERE lower("${column}"::text) LIKE $1`, [
      `%${userId.toLowerCase()}%`,
    ])) as { n: number }[];
    if (n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

/**
 * The Redis keys under `prefix` whose names contain the id, but for the member's sessions
 * (`user-sessions:<id>`): auth-service owns and ends those, and test beds share one prefix.
 */
export async function redisKeysHolding(redisUrl: string, prefix: string, userId: string): Promise<string[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      keys.push(...batch.filter((k) => k.toLowerCase().includes(userId.toLowerCase()) && !k.includes(':user-sessions:')));
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}
