import { startPgBouncer, startPostgresPrimaryAndReplica, type OwnPgBouncer, type PostgresPrimaryAndReplica } from '@mate/testing';

/**
 * The PostgreSQL of the scale topology: a primary and a streaming replica (two local clusters of
 * their own), each behind a PgBouncer in transaction pooling. A service writes and reads through
 * the primary's PgBouncer (`DATABASE_URL`, `DATABASE_POOLING=transaction`) and reads its heaviest
 * paths through the replica's (`DATABASE_READ_URL`); migrations and checks use the primary directly.
 */
export interface DatabaseTier {
  servers: PostgresPrimaryAndReplica;
  primaryPool: OwnPgBouncer;
  replicaPool: OwnPgBouncer;
  /** The primary's URL for a database, not pooled (migrations, checks, the seeder). */
  directUrl(database: string): string;
  /** A service's database settings in this topology. */
  serviceEnv(database: string): Record<string, string>;
  /** Kills the replica like a crash (reads fall back to the primary). */
  killReplica(): Promise<void>;
  stop(): Promise<void>;
}

/** Server connections per database behind each PgBouncer: fewer than the clients, as in production. */
const POOL_SIZE = 4;

export async function startDatabaseTier(options: { databases: string[]; log: (line: string) => void }): Promise<DatabaseTier> {
  const servers = await startPostgresPrimaryAndReplica();
  const pools: OwnPgBouncer[] = [];
  try {
    for (const name of options.databases) await servers.createDatabase(name);
    await servers.caughtUp();
    const primaryPool = await startPgBouncer({ upstreamPort: servers.primaryPort, databases: options.databases, poolMode: 'transaction', poolSize: POOL_SIZE });
    pools.push(primaryPool);
    const replicaPool = await startPgBouncer({ upstreamPort: servers.replicaPort, databases: options.databases, poolMode: 'transaction', poolSize: POOL_SIZE });
    pools.push(replicaPool);
    options.log(
      `PostgreSQL primary :${servers.primaryPort} (PgBouncer :${primaryPool.port}), streaming replica :${servers.replicaPort} (PgBouncer :${replicaPool.port}), ${options.databases.length} databases`,
    );
    return {
      servers,
      primaryPool,
      replicaPool,
      directUrl: (database) => servers.primaryUrl(database),
      serviceEnv: (database) => ({
        DATABASE_URL: primaryPool.url(database),
        DATABASE_POOLING: 'transaction',
        DATABASE_READ_URL: replicaPool.url(database),
      }),
      killReplica: () => servers.kill('replica'),
      async stop() {
        for (const p of pools) await p.stop().catch(() => undefined);
        await servers.stop();
      },
    };
  } catch (e) {
    for (const p of pools) await p.stop().catch(() => undefined);
    await servers.stop();
    throw e;
  }
}
