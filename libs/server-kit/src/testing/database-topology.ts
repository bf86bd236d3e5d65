import {
  createDatabaseOn,
  createTestDatabase,
  testInfra,
  type OwnPgBouncer,
  type PostgresPrimaryAndReplica,
} from '@mate/testing';
import type { TestDatabaseSource } from './service-test-bed';

/** The port of the shared test server, for a PgBouncer of the test's own in front of it. */
export async function testServerPort(): Promise<number> {
  return Number(new URL((await testInfra()).postgresAdminUrl).port || 5432);
}

/**
 * A fresh database on the test server, the service reaching it through `bouncer` (a PgBouncer of
 * the test's own serving every database, `databases: '*'`) in transaction pooling.
 */
export function throughPgBouncer(bouncer: OwnPgBouncer): TestDatabaseSource {
  return {
    create: (label) => createTestDatabase(label),
    env: (db) => ({ DATABASE_URL: bouncer.url(db.name), DATABASE_POOLING: 'transaction' }),
  };
}

/**
 * A fresh database on the test's own primary, the service writing to the primary (through
 * `bouncer` in transaction pooling when given) and reading its heaviest reads from the replica.
 */
export function withReadReplica(cluster: PostgresPrimaryAndReplica, bouncer?: OwnPgBouncer): TestDatabaseSource {
  return {
    create: (label) => createDatabaseOn(cluster.primaryUrl(), label),
    env: (db) => ({
      DATABASE_URL: bouncer ? bouncer.url(db.name) : cluster.primaryUrl(db.name),
      ...(bouncer ? { DATABASE_POOLING: 'transaction' } : {}),
      DATABASE_READ_URL: cluster.replicaUrl(db.name),
    }),
  };
}
