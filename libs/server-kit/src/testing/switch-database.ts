/// <reference types="jest" />
import { DataSource, type MigrationInterface } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@mate/testing';

export type MigrationClass = new () => MigrationInterface;

/**
 * The database of a projection switch's spec (ADR 0030), created before its tests and dropped
 * after them (call it inside the scenario's `describe`): set up as the release before the switch
 * had it (`migratedBefore`), then opened with the switch's migrations (`opened`), whose run the
 * test asserts.
 */
export function switchDatabase(name: string) {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(name);
  });
  afterAll(async () => {
    await db.drop();
  });
  const opened = async (migrations: MigrationClass[]): Promise<DataSource> =>
    new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false }).initialize();
  return {
    /** The database with these migrations, initialized, none run yet (the caller destroys it). */
    opened,
    /** The database migrated with these (the previous release's), initialized (the caller destroys it). */
    async migratedBefore(migrations: MigrationClass[]): Promise<DataSource> {
      const before = await opened(migrations);
      await before.runMigrations({ transaction: 'each' });
      return before;
    },
  };
}
