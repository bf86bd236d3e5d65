import { DynamicModule, Inject, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type MigrationInterface } from 'typeorm';
import { DatabaseEnv, SERVICE_ENV } from '../config/config';
import { HealthRegistry } from '../health/health';
import { markTransactionPooled } from './named-query';
import { ReadReplica } from './read-replica';

export interface DatabaseOptions {
  entities: Type<unknown>[];
  migrations: Type<MigrationInterface>[];
}

class DatabaseHealth {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(HealthRegistry) health: HealthRegistry,
    @Inject(SERVICE_ENV) env: DatabaseEnv,
  ) {
    // Before any repository's first statement (they run once every provider is constructed).
    if (env.DATABASE_POOLING === 'transaction') markTransactionPooled(dataSource);
    health.register('database', async () => {
      await dataSource.query('SELECT 1');
    });
  }
}

@Module({})
class ReadReplicaModule {}

/**
 * The service's own PostgreSQL database. Schema changes only through migrations
 * (`<epoch-ms>-<Name>.ts`), run by the `migrate` command once per deploy, never on start-up.
 * DATABASE_POOLING=transaction: through PgBouncer's transaction pooling (no named statements);
 * DATABASE_READ_URL: a streaming replica for `ReadReplica`'s reads (docs/adr/0033).
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [SERVICE_ENV],
          useFactory: (env: DatabaseEnv) => ({
            type: 'postgres' as const,
            url: env.DATABASE_URL,
            entities: options.entities,
            migrations: options.migrations,
            migrationsTableName: 'migrations',
            synchronize: false,
            migrationsRun: false,
            extra: { max: 10, connectionTimeoutMillis: 5000 },
            logging: false,
          }),
        }),
        TypeOrmModule.forFeature(options.entities),
        // Global, as the data source is: a feature's repository injects it without importing anything.
        { module: ReadReplicaModule, global: true, providers: [ReadReplica], exports: [ReadReplica] },
      ],
      providers: [DatabaseHealth],
      exports: [TypeOrmModule],
    };
  }
}
