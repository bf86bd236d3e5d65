import { DynamicModule, Module, Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import type { ServiceName } from '@mate/contracts';
import type { DatabaseEnv } from './config/config';
import { CoreModule } from './core.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule, type EventHandlerSet } from './events/events.module';
import { KIT_MIGRATIONS } from './events/kit-migrations';
import { projectionMigrations, type KitProjection } from './projections/kit-projections';

export interface ServiceModuleOptions<E extends DatabaseEnv> {
  service: ServiceName;
  envClass: Type<E>;
  /** Values that win over process.env (tests run several services in one process). */
  env?: Partial<Record<string, string>>;
  /** The service's own entities (the kit's tables have none: see events/kit-migrations.ts). */
  entities: Type<unknown>[];
  /** The service's own migrations, oldest first; they run after the kit's. */
  migrations: Type<MigrationInterface>[];
  /** The feature modules, in route order (a more specific route's module first). */
  features: NonNullable<DynamicModule['imports']>;
  /** The events this service consumes; the handler set may inject what the features export. */
  handlers?: Type<EventHandlerSet>;
  consumerConcurrency?: number;
  /**
   * The kit's projections this service keeps (docs/adr/0030-pair-and-suspension-projection.md):
   * their tables (migrations run after the kit's, before the service's), their handlers (before the
   * service's own handler of the same event, which adds what is the service's own) and their reads.
   */
  projections?: KitProjection[];
}

/**
 * Everything a service is made of besides its features, once: validated settings, logging, Redis,
 * authentication and health (CoreModule), its own database with the kit's tables and migrations
 * (DatabaseModule), the outbox and, with `handlers`, the event consumer (EventsModule). A service's
 * `app.module.ts` lists only its own entities, migrations, features and handlers.
 */
@Module({})
export class ServiceModule {
  static forRoot<E extends DatabaseEnv>(options: ServiceModuleOptions<E>): DynamicModule {
    return {
      module: ServiceModule,
      imports: [
        CoreModule.forRoot({ service: options.service, envClass: options.envClass, env: options.env as Partial<Record<keyof E, string>> }),
        DatabaseModule.forRoot({
          entities: options.entities,
          migrations: [...KIT_MIGRATIONS, ...projectionMigrations(options.projections ?? []), ...options.migrations],
        }),
        ...options.features,
        EventsModule.forRoot({
          handlers: options.handlers,
          imports: options.handlers ? options.features : [],
          consumerConcurrency: options.consumerConcurrency,
          projections: options.projections,
        }),
      ],
    };
  }
}
