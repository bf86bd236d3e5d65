import Redis from 'ioredis';
import type { DataSource } from 'typeorm';

/**
 * Where a member id still appears: every column of every table of the public schema, cast to
 * text (what `npm run gdpr -- verify` scans), as `table.column` with a count.
 */
export async function tablesHolding(dataSource: DataSource, userId: string): Promise<string[]> {
  const columns: { table_name: string; column_name: string }[] = await dataSource.query(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.column_name`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [{ n }]: { n: number }[] = await dataSource.query(
      `SELECT count(*)::int AS n FROM "${table}" WHERE lower("${column}"::text) LIKE $1`,
      [`%${userId.toLowerCase()}%`],
    );
    if (n > 0) found.push(`${table}.${column} (${n})`);
  }
  return found;
}

/**
 * The Redis keys under the service's prefix that contain the id, but for the member's sessions
 * (`user-sessions:<id>`): auth-service owns and ends those; in the test bed they share the prefix.
 */
export async function redisKeysHolding(env: Record<string, string | undefined>, userId: string): Promise<string[]> {
  const redis = new Redis(env.REDIS_URL as string, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${env.KEY_PREFIX}*`, 'COUNT', 500);
      cursor = next;
      keys.push(...batch.filter((k) => k.toLowerCase().includes(userId.toLowerCase()) && !k.includes(':user-sessions:')));
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}
