import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { BaseServiceEnv, SERVICE_ENV } from '../config/config';
import { SERVICE_NAME } from '../core.module';
import type { ServiceName } from '@mate/contracts';
import { OUTBOX_OPTIONS, OutboxService, type OutboxOptions } from './outbox.service';
import {
  EVENT_CONSUMER_OPTIONS,
  EVENT_HANDLERS,
  EventConsumer,
  type EventConsumerOptions,
  type EventHandlers,
} from './event-consumer';
import { EventMaintenance } from './ops/event-maintenance';
import {
  assertProjectionsConsumed,
  projectionProviders,
  withKitProjections,
  type KitProjection,
} from '../projections/kit-projections';
import { MemberSuspensions } from '../projections/member-suspensions';
import { PairStates } from '../projections/pair-states';
import { ReadReplica } from '../database/read-replica';

/** Something that knows how to handle the events its service consumes. */
export interface EventHandlerSet {
  handlers(): EventHandlers;
}

/** The outbox's options from the service's settings. */
export function outboxOptionsOf(env: BaseServiceEnv, service: ServiceName): OutboxOptions {
  return {
    service,
    redisUrl: env.REDIS_URL,
    redisClusterNodes: env.REDIS_CLUSTER_NODES,
    keyPrefix: env.KEY_PREFIX,
    pollIntervalMs: env.OUTBOX_POLL_MS,
    relayEnabled: env.OUTBOX_RELAY === 'on',
  };
}

/** The outbox (for producers) and, when a handler set is given, the event consumer. */
@Module({})
export class EventsModule {
  static forRoot(
    options: {
      handlers?: Type<EventHandlerSet>;
      /** Modules whose providers the handler set injects. */
      imports?: DynamicModule['imports'];
      consumerConcurrency?: number;
      /** The kit's projections the service keeps (../projections): their handlers come first. */
      projections?: KitProjection[];
    } = {},
  ): DynamicModule {
    const providers: Provider[] = [
      {
        provide: OUTBOX_OPTIONS,
        inject: [SERVICE_ENV, SERVICE_NAME],
        useFactory: outboxOptionsOf,
      },
      OutboxService,
      // Pruning on a job scheduler and the event figures on /metrics, for every service with an outbox.
      EventMaintenance,
    ];
    const exports: (symbol | Type<unknown>)[] = [OutboxService, EventMaintenance];
    const projections = options.projections ?? [];
    // A projection is written by its events' handlers, which only a consumer runs.
    if (projections.length > 0 && !options.handlers) {
      throw new Error(`The kit's projections (${projections.join(', ')}) need the service's event handlers (a consumer)`);
    }
    // The projections' reads, for the service's features (the module is global).
    providers.push(...projectionProviders(projections));
    exports.push(...projectionProviders(projections));
    if (options.handlers) {
      providers.push(
        options.handlers,
        {
          provide: EVENT_HANDLERS,
          inject: [
            options.handlers,
            SERVICE_NAME,
            { token: MemberSuspensions, optional: true },
            { token: PairStates, optional: true },
            { token: ReadReplica, optional: true },
          ],
          useFactory: (
            set: EventHandlerSet,
            service: ServiceName,
            suspensions: MemberSuspensions | undefined,
            pairs: PairStates | undefined,
            replica: ReadReplica | undefined,
          ) => {
            assertProjectionsConsumed(service, projections);
            return withKitProjections(set.handlers(), { suspensions, pairs, ownWrites: replica });
          },
        },
        {
          provide: EVENT_CONSUMER_OPTIONS,
          inject: [SERVICE_ENV, SERVICE_NAME],
          useFactory: (env: BaseServiceEnv, service: ServiceName): EventConsumerOptions => ({
            service,
            redisUrl: env.REDIS_URL,
            redisClusterNodes: env.REDIS_CLUSTER_NODES,
            keyPrefix: env.KEY_PREFIX,
            enabled: env.WORKERS === 'on',
            concurrency: options.consumerConcurrency ?? 4,
          }),
        },
        EventConsumer,
      );
      exports.push(EventConsumer);
    }
    // Global: every feature module of the service writes to the same outbox.
    return { global: true, module: EventsModule, imports: options.imports ?? [], providers, exports };
  }
}
