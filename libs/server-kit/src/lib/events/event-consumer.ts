import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Job, Worker } from 'bullmq';
import type { Logger } from 'pino';
import {
  eventQueueName,
  eventsConsumedBy,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type ServiceName,
} from '@mate/contracts';
import { LOGGER, runWithRequestId } from '../logging/logger';
import { createQueueConnection } from '../redis/redis';

export type EventHandler<N extends EventName> = (
  payload: EventPayloads[N],
  manager: EntityManager,
  envelope: EventEnvelope<N>,
) => Promise<void>;

export type EventHandlers = { [N in EventName]?: EventHandler<N> };

export const EVENT_HANDLERS = Symbol('EVENT_HANDLERS');
export const EVENT_CONSUMER_OPTIONS = Symbol('EVENT_CONSUMER_OPTIONS');

export interface EventConsumerOptions {
  service: ServiceName;
  redisUrl: string;
  keyPrefix: string;
  /** Off in one-off commands; tests turn it on and off to simulate a stopped consumer. */
  enabled: boolean;
  concurrency: number;
}

/** Thrown at start-up when the catalogue routes an event here that no handler takes. */
export class MissingEventHandlerError extends Error {}

export function assertHandlersCoverCatalogue(service: ServiceName, handlers: EventHandlers) {
  const missing = eventsConsumedBy(service).filter((name) => !handlers[name]);
  if (missing.length) {
    throw new MissingEventHandlerError(`${service} consumes ${missing.join(', ')} but has no handler for it`);
  }
}

/**
 * Consumes `events.<service>`. Each event is handled inside one database transaction that first
 * records its id in `processed_event`; a redelivered event finds the id and changes nothing.
 */
@Injectable()
export class EventConsumer implements OnModuleInit, OnApplicationShutdown {
  private worker: Worker | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_HANDLERS) private readonly handlers: EventHandlers,
    @Inject(EVENT_CONSUMER_OPTIONS) private readonly options: EventConsumerOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    assertHandlersCoverCatalogue(this.options.service, this.handlers);
    if (this.options.enabled) this.start();
  }

  start() {
    if (this.worker) return;
    this.worker = new Worker(eventQueueName(this.options.service), (job) => this.process(job), {
      connection: createQueueConnection(this.options.redisUrl),
      prefix: this.options.keyPrefix,
      concurrency: this.options.concurrency,
    });
    this.worker.on('failed', (job, err) =>
      this.logger.warn({ eventId: job?.id, name: job?.name, attempts: job?.attemptsMade, err }, 'event handler failed'),
    );
    this.worker.on('error', (err) => this.logger.warn({ err }, 'event worker error'));
  }

  async stop() {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      await worker.close();
      await worker.disconnect();
    }
  }

  async onApplicationShutdown() {
    await this.stop();
  }

  /** Handles one event; returns false when it had been handled before. */
  async handle(envelope: EventEnvelope): Promise<boolean> {
    const handler = this.handlers[envelope.name] as EventHandler<EventName> | undefined;
    if (!handler) throw new MissingEventHandlerError(`No handler for ${envelope.name}`);
    return this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        'INSERT INTO processed_event (event_id, name) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
        [envelope.id, envelope.name],
      );
      if (inserted.length === 0) return false;
      await handler(envelope.payload, manager, envelope);
      return true;
    });
  }

  private async process(job: Job): Promise<string> {
    const envelope = job.data as EventEnvelope;
    return runWithRequestId(`event:${envelope.id}`, async () => {
      const handled = await this.handle(envelope);
      this.logger.info({ eventId: envelope.id, name: envelope.name, duplicate: !handled }, 'event consumed');
      return handled ? 'handled' : 'duplicate';
    });
  }
}
