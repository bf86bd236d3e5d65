import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import {
  eventQueueName,
  eventsConsumedBy,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type ServiceName,
} from '@mate/contracts';
import { LOGGER } from '../logging/logger';
import { HealthRegistry } from '../health/health';
import { eventLagSeconds } from '../metrics/metrics';
import { QueueWorker } from '../workers/queue-worker';
import { erasedMemberHash, lockMemberForErasure, memberIdsOf, shareErasureLocksSql } from '../gdpr/member-erasure';
import { readEventPayload } from './payloads/event-payloads';

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
  /** REDIS_CLUSTER_NODES, when the queues live on a Redis Cluster. */
  redisClusterNodes?: string;
  keyPrefix: string;
  /** Off in one-off commands; tests turn it on and off to simulate a stopped consumer. */
  enabled: boolean;
  concurrency: number;
}

/**
 * handled: the handler ran. duplicate: this event id was handled before. stale: a newer version
 * of its aggregate had been applied, so the handler did not run (recorded in processed_event).
 * erased: it names a member this service has erased (user.deleted), so the handler did not run.
 * unreadable: its payload does not read as its catalogue class (./payloads), so the handler did
 * not run; recorded like the others, so a redelivery changes nothing (retrying would not make it
 * readable).
 */
export type EventOutcome = 'handled' | 'duplicate' | 'stale' | 'erased' | 'unreadable';

/** Thrown at start-up when the catalogue routes an event here that no handler takes. */
export class MissingEventHandlerError extends Error {}

export function assertHandlersCoverCatalogue(service: ServiceName, handlers: EventHandlers) {
  const missing = eventsConsumedBy(service).filter((name) => !handlers[name]);
  if (missing.length) {
    throw new MissingEventHandlerError(`${service} consumes ${missing.join(', ')} but has no handler for it`);
  }
}

/**
 * Consumes `events.<service>`. Each payload is read once against its catalogue entry's class
 * (./payloads/event-payloads.ts: validated, ids lower case, pairs ascending), so handlers receive
 * the typed, normalised payload and check nothing again. Each event is handled inside one database transaction that first
 * records its id in `processed_event` (a redelivered event finds the id and changes nothing) and,
 * for a state-carrying event, raises the aggregate's applied version in `applied_version`: an
 * event not newer than what was applied is recorded as stale and its handler never runs, so a
 * retried or reordered old version never rolls state back.
 */
@Injectable()
export class EventConsumer extends QueueWorker<EventEnvelope, EventOutcome> implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_HANDLERS) private readonly handlers: EventHandlers,
    @Inject(EVENT_CONSUMER_OPTIONS) options: EventConsumerOptions,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super({ ...options, queue: eventQueueName(options.service) }, logger, health);
  }

  override onModuleInit() {
    assertHandlersCoverCatalogue(this.settings.service, this.handlers);
    super.onModuleInit();
  }

  /** Handles one event; true when its handler ran (false: a duplicate, or older than what was applied). */
  async handle(envelope: EventEnvelope): Promise<boolean> {
    return (await this.apply(envelope)) === 'handled';
  }

  /**
   * Two statements before the handler (issue 27: they were four): the event recorded in
   * `processed_event` with the erasure locks of the members it names taken shared, then, once the
   * locks are held, whether one of them is erased and, if none is, the aggregate's applied version
   * raised to the event's.
   */
  async apply(received: EventEnvelope): Promise<EventOutcome> {
    const handler = this.handlers[received.name] as EventHandler<EventName> | undefined;
    if (!handler) throw new MissingEventHandlerError(`No handler for ${received.name}`);
    const reading = readEventPayload(received.name, received.payload);
    if (!reading.readable) return this.skipUnreadable(received, reading.fields);
    const envelope: EventEnvelope = { ...received, payload: reading.payload };
    // An erasure takes its member's lock exclusively, any other event the locks of the members it
    // names shared: the event then either commits before the erasure, which erases what it wrote,
    // or finds the member erased and is dropped (docs/adr/0016-member-data.md).
    const erasure = envelope.name === 'user.deleted';
    const members = erasure ? [] : memberIdsOf(envelope.payload);
    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    // Facts, and envelopes from before versions existed, are always newest.
    const versioned = Boolean(aggregateType && aggregateId && typeof aggregateVersion === 'number');
    return this.dataSource.transaction(async (manager) => {
      const [recorded]: { recorded: boolean }[] = await manager.query(
        `WITH recorded AS (
           INSERT INTO processed_event (event_id, name) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id)
         SELECT EXISTS (SELECT 1 FROM recorded) AS recorded, ${shareErasureLocksSql('$3')} AS locks`,
        [envelope.id, envelope.name, members],
      );
      if (!recorded.recorded) return 'duplicate';
      if (erasure) {
        await lockMemberForErasure(manager, (envelope.payload as EventPayloads['user.deleted']).userId);
      }
      if (members.length === 0 && !versioned) return this.run(handler, manager, envelope);
      // A statement of its own: its snapshot sees an erasure committed while the locks were awaited.
      // The row lock the version upsert takes makes two versions of one aggregate apply one after
      // the other; an erased member's aggregate is not written into applied_version.
      const [checked]: { erased: boolean; raised: boolean }[] = await manager.query(
        `WITH erased AS (SELECT 1 FROM erased_member WHERE id_hash = ANY($1::bytea[]) LIMIT 1),
         raised AS (
           INSERT INTO applied_version (aggregate_type, aggregate_id, version)
           SELECT $2::text, $3::text, $4::int WHERE $5::boolean AND NOT EXISTS (SELECT 1 FROM erased)
           ON CONFLICT (aggregate_type, aggregate_id) DO UPDATE SET version = EXCLUDED.version, applied_at = now()
             WHERE applied_version.version < EXCLUDED.version
           RETURNING version)
         SELECT EXISTS (SELECT 1 FROM erased) AS erased, EXISTS (SELECT 1 FROM raised) AS raised`,
        [members.map(erasedMemberHash), aggregateType ?? '', aggregateId ?? '', versioned ? aggregateVersion : 0, versioned],
      );
      if (checked.erased) {
        await manager.query(`UPDATE processed_event SET outcome = 'erased' WHERE event_id = $1`, [envelope.id]);
        return 'erased';
      }
      if (versioned && !checked.raised) {
        await manager.query(`UPDATE processed_event SET outcome = 'stale' WHERE event_id = $1`, [envelope.id]);
        return 'stale';
      }
      return this.run(handler, manager, envelope);
    });
  }

  /**
   * The one place an unreadable payload is recorded and logged: by its catalogue name, schema
   * version, event id and the names of the fields it broke (never their values: an email, a
   * reason). A redelivery finds it recorded and changes nothing.
   */
  private async skipUnreadable(envelope: EventEnvelope, fields: string[]): Promise<EventOutcome> {
    const recorded: unknown[] = await this.dataSource.query(
      `INSERT INTO processed_event (event_id, name, outcome) VALUES ($1, $2, 'unreadable')
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [envelope.id, envelope.name],
    );
    if (recorded.length === 0) return 'duplicate';
    this.logger.error(
      { eventId: envelope.id, name: envelope.name, version: envelope.version, fields },
      'event with an unreadable payload skipped',
    );
    return 'unreadable';
  }

  private async run(handler: EventHandler<EventName>, manager: EntityManager, envelope: EventEnvelope): Promise<EventOutcome> {
    await handler(envelope.payload, manager, envelope);
    return 'handled';
  }

  protected requestIdOf(job: Job<EventEnvelope, EventOutcome>): string {
    return job.data.requestId ?? `event:${job.data.id}`;
  }

  protected async process(job: Job<EventEnvelope, EventOutcome>): Promise<EventOutcome> {
    const envelope = job.data;
    const outcome = await this.apply(envelope);
    if (outcome !== 'duplicate') {
      const lagSeconds = (Date.now() - Date.parse(envelope.occurredAt)) / 1000;
      if (Number.isFinite(lagSeconds)) eventLagSeconds().observe({ service: this.settings.service, event: envelope.name }, lagSeconds);
    }
    this.logger.info(
      { eventId: envelope.id, name: envelope.name, aggregateVersion: envelope.aggregateVersion, outcome },
      'event consumed',
    );
    return outcome;
  }
}
