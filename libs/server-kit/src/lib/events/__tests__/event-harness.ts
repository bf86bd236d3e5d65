import { Writable } from 'node:stream';
import { Injectable, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import pino from 'pino';
import { eventsConsumedBy, type EventName, type ServiceName } from '@mate/contracts';
import type { TestDatabase } from '@mate/testing';
import { DatabaseEnv, SERVICE_ENV, type BaseServiceEnv } from '../../config/config';
import { SERVICE_NAME } from '../../core.module';
import { currentRequestId, LOGGER } from '../../logging/logger';
import { runMigrations } from '../../bootstrap/bootstrap';
import { ServiceModule } from '../../service.module';
import { outboxOptionsOf, type EventHandlerSet } from '../events.module';
import { OUTBOX_OPTIONS, OutboxService, type OutboxOptions } from '../outbox.service';
import { EventConsumer, type EventHandler, type EventHandlers } from '../event-consumer';
import type { KitProjection } from '../../projections/kit-projections';

export type LogLine = Record<string, unknown> & { msg: string; requestId?: string };

/** A pino logger like the kit's (request id on every line), writing into `lines`. */
export function capturingLogger(service: string, lines: LogLine[]) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino(
    {
      level: 'info',
      base: { service },
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    sink,
  );
}

/**
 * The handlers given, and a no-op for every other event the catalogue routes to `service`. These
 * tests borrow a real service's name, and its consumer refuses to start without a handler for each
 * event it consumes: the catalogue grows with the product, the kit behaviour under test does not.
 */
export function coveringCatalogue(service: ServiceName, handlers: EventHandlers): EventHandlers {
  const all = { ...handlers } as Record<EventName, EventHandler<EventName> | undefined>;
  for (const name of eventsConsumedBy(service)) all[name] ??= async () => undefined;
  return all as EventHandlers;
}

/** A handler set for the kit's EventsModule from plain functions. */
export function handlerSet(handlers: EventHandlers): Type<EventHandlerSet> {
  @Injectable()
  class TestHandlers implements EventHandlerSet {
    handlers() {
      return handlers;
    }
  }
  return TestHandlers;
}

export interface KitService {
  moduleRef: TestingModule;
  dataSource: DataSource;
  outbox: OutboxService;
  consumer: EventConsumer | null;
  logs: LogLine[];
  close(): Promise<void>;
}

/**
 * A service made of the kit alone (settings, database with the kit's migrations, outbox, and a
 * consumer when handlers are given), migrated before anything starts. `setup` runs after the
 * migrations and before the relay or consumer start (create the tables the handlers write).
 */
export async function startKitService(options: {
  service: ServiceName;
  db: TestDatabase;
  redisUrl: string;
  prefix: string;
  handlers?: EventHandlers;
  env?: Record<string, string>;
  /** Outbox options beyond what the settings give (the relay's gather window). */
  outbox?: Partial<OutboxOptions>;
  consumerConcurrency?: number;
  projections?: KitProjection[];
  setup?: (dataSource: DataSource) => Promise<void>;
}): Promise<KitService> {
  const logs: LogLine[] = [];
  const moduleRef = await Test.createTestingModule({
    imports: [
      ServiceModule.forRoot({
        service: options.service,
        envClass: DatabaseEnv,
        env: {
          DATABASE_URL: options.db.url,
          REDIS_URL: options.redisUrl,
          KEY_PREFIX: options.prefix,
          OUTBOX_RELAY: 'off',
          WORKERS: options.handlers ? 'on' : 'off',
          LOG_LEVEL: 'silent',
          ...options.env,
        },
        entities: [],
        migrations: [],
        features: [],
        handlers: options.handlers ? handlerSet(coveringCatalogue(options.service, options.handlers)) : undefined,
        consumerConcurrency: options.consumerConcurrency,
        projections: options.projections,
      }),
    ],
  })
    .overrideProvider(LOGGER)
    .useValue(capturingLogger(options.service, logs))
    .overrideProvider(OUTBOX_OPTIONS)
    .useFactory({
      factory: (env: BaseServiceEnv, service: ServiceName) => ({ ...outboxOptionsOf(env, service), ...options.outbox }),
      inject: [SERVICE_ENV, SERVICE_NAME],
    })
    .compile();
  await runMigrations(moduleRef);
  const dataSource = moduleRef.get(DataSource);
  await options.setup?.(dataSource);
  await moduleRef.init();
  return {
    moduleRef,
    dataSource,
    outbox: moduleRef.get(OutboxService),
    consumer: options.handlers ? moduleRef.get(EventConsumer) : null,
    logs,
    close: () => moduleRef.close(),
  };
}
