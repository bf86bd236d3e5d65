import { DynamicModule, Inject, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type MigrationInterface } from 'typeorm';
import { DatabaseEnv, SERVICE_ENV } from '../config/config';
import { HealthRegistry } from '../health/health';

export interface DatabaseOptions {
  entities: Type<unknown>[];
  migrations: Type<MigrationInterface>[];
}

class DatabaseHealth {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(HealthRegistry) health: HealthRegistry,
  ) {
    health.register('database', async () => {
      await dataSource.query('SELECT 1');
    });
  }
}

/**
 * The service's own PostgreSQL database. Schema changes only through migrations
 * (`<epoch-ms>-<Name>.ts`), run by the `migrate` command once per deploy, never on start-up.
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
      ],
      providers: [DatabaseHealth],
      exports: [TypeOrmModule],
    };
  }
}
