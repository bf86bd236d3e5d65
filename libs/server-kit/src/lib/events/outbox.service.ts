import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, type EntitySubscriberInterface, type QueryRunner } from 'typeorm';
import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../redis/redis';
import type { Logger } from 'pino';
import {
  aggregateIdOf,
  EVENT_CATALOGUE,
  eventQueueName,
  QueueName,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type JobEnvelope,
  type JobPayloads,
  type ServiceName,
  queuePrefix,
} from '@mate/contracts';
import { currentRequestId, LOGGER } from '../logging/logger';
import { withTimeout } from '../timeout';
import { createRelayConnection } from './relay-connection';
import { isClusterClient, isRedisCluster } from '../redis/redis';


/**
 * Events whose outbox row is deleted once relayed instead of kept for replay: `user.deleted`
 * names a member who must be left in no table (docs/adr/0016-member-data.md). Its queues hold it
 * until every consumer has handled it.
 */
const PURGED_AFTER_RELAY: ReadonlySet<string> = new Set<EventName>(['user.deleted']);

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');

export interface OutboxOptions {
  service: ServiceName;
  /** Redis of the queues the relay publishes to. */
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: set, the relay publishes to that Redis Cluster (credentials from redisUrl). */
  redisClusterNodes?: string;
  keyPrefix: string;
  /** How often the relay looks for unpublished rows; it is also nudged after each write. */
  pollIntervalMs: number;
  /** Off in one-off commands (migrate, CLI) and in tests that drive `relayOnce()` themselves. */
  relayEnabled: boolean;
  /** On a cluster, how far back rows are relayed again after a failover; RELAY_FAILOVER_REPLAY_MS unless set. */
  failoverReplayMs?: number;
  /**
   * How long a nudged pass under load waits for more commits to join it; RELAY_GATHER_MS unless
   * set (a test sets it longer, so how many commits join a pass does not depend on the machine's speed).
   */
  gatherMs?: number;
}

/**
 * Completed event jobs stay a day (the redelivery window); exhausted ones wait for `npm run events
 * -- redrive` for 30 days, then go: events carry member ids and a deleted member's must not stay
 * in Redis for ever (ADR 0016, "What stays outside PostgreSQL").
 */
export const EVENT_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential' as const, delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** Rows one relay pass claims. */
export const RELAY_BATCH_SIZE = 100;
/** A relay that dies mid-publish leaves its claimed rows to another relay after this long. */
export const RELAY_CLAIM_LEASE_MS = 30_000;
/** Longest a publish to Redis may take; then the batch is released and tried again later. */
export const RELAY_PUBLISH_TIMEOUT_MS = 5_000;
/**
 * Under load, how long a nudged pass waits for the commits of the next milliseconds to join it.
 * Only after a pass that found rows: a lone event (the relay idle) is published at once. Without it
 * the relay made a pass per commit at moderate rates, each a claim, a Redis round trip and an
 * update for one row (issue 27).
 */
export const RELAY_GATHER_MS = 10;
/** Longest pause between tries while Redis is unreachable. */
export const RELAY_MAX_BACKOFF_MS = 5_000;
/**
 * On a Redis Cluster (ADR 0032): when a node leaves the cluster's map (a master killed and its
 * replica promoted), the rows published within this long before are relayed again. Replication is
 * asynchronous, so a master may have acknowledged jobs its replica never received; the outbox is
 * the source of truth. A job still in its queue is not added twice (its id is the row's id), one
 * lost is added again, and consumers are idempotent (processed_event; a job's id is its delivery
 * key). Covers a failover's detection time (cluster-node-timeout and election, a few seconds to
 * ~20 s with the default 15 s node timeout) and the relay's slot-map refresh (5 s).
 */
export const RELAY_FAILOVER_REPLAY_MS = 60_000;

const MAX_ERROR_LENGTH = 500;

/** The event and job names this build knows; rows with other names wait for a newer relay. */
const KNOWN_EVENTS = Object.keys(EVENT_CATALOGUE);
const KNOWN_QUEUES = Object.values(QueueName) as string[];

/** A statement of the producer's with its parameters (`$1`…). */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

interface ClaimedRow {
  id: string;
  kind: 'event' | 'job';
  name: string;
  body: object;
  created_at: Date;
}

/**
 * Writes events and jobs into the outbox inside the caller's transaction, and relays them to
 * BullMQ: events to `events.<consumer>` of every consumer in the catalogue, jobs to their queue.
 *
 * The relay never holds a transaction or a lock while it talks to Redis: it claims a batch with
 * one short statement (a lease in `claimed_until`), publishes with `addBulk` outside any
 * transaction, and stamps `published_at` with another short statement. While Redis is down the
 * claim is released and the relay backs off; it resumes on its own. Delivery is at least once;
 * the job id is the row id, so a batch published twice is one job per queue.
 */
@Injectable()
export class OutboxService implements OnModuleInit, OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();
  private connection: RedisClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  /** Failed passes in a row; the next pass waits longer while it is above zero. */
  private failures = 0;
  /** A write was nudged while a pass ran. */
  private passWanted = false;
  /** A nudged pass waiting for more commits to join it (RELAY_GATHER_MS). */
  private gathering: NodeJS.Timeout | null = null;
  /** Rows the last pass found: above zero, the relay is under load and a nudge gathers first. */
  private lastPassRows = 0;
  /**
   * The relay's own pooled connection, kept between passes: its statements never wait in the
   * pool's queue behind the service's requests (issue 27: once the request path saturated, every
   * claim and mark waited there for seconds and the relay fell behind). Each statement commits on
   * its own; no transaction stays open. Given back after an error and at shutdown.
   */
  private relayRunner: QueryRunner | null = null;
  /** Transactions that wrote to the outbox and have not committed yet: their commit nudges the relay. */
  private readonly awaitingCommit = new WeakSet<QueryRunner>();
  /** On a cluster: a failover was seen; the next pass relays again what was published since then. */
  private replayFrom: Date | null = null;
  /** On a cluster: purged-after-relay rows wait out the replay window (see purgeRelayed); the first pass looks too. */
  private purgeDue = true;
  private readonly cluster = isRedisCluster(this.options);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    if (!this.options.relayEnabled) return;
    // Hears every commit of the service's data source: a transaction that wrote an event has the
    // relay publish it at once, not at the next poll (a block reaches every service within 1 s).
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => {
        if (queryRunner.isTransactionActive || !this.awaitingCommit.has(queryRunner)) return;
        this.awaitingCommit.delete(queryRunner);
        setImmediate(() => this.nudge());
      },
      afterTransactionRollback: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive) this.awaitingCommit.delete(queryRunner);
      },
    };
    this.dataSource.subscribers.push(subscriber);
    this.schedule(this.options.pollIntervalMs);
  }

  async onApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.gathering) clearTimeout(this.gathering);
    await this.running?.catch(() => undefined);
    await this.releaseRelayRunner();
    // A queue that never reached Redis would wait for it forever on close.
    await Promise.allSettled([...this.queues.values()].map((q) => withTimeout(q.close(), RELAY_PUBLISH_TIMEOUT_MS)));
    this.connection?.disconnect();
  }

  /**
   * Writes an event in the caller's transaction. A state-carrying event (the catalogue names its
   * aggregate) gets the aggregate's next version here, under the lock of its counter row, so
   * versions of one aggregate follow commit order. Read the state you publish under the
   * aggregate's own row lock (every producer locks the row it changes), then call this.
   */
  async publish<N extends EventName>(manager: EntityManager, name: N, payload: EventPayloads[N]): Promise<EventEnvelope<N>> {
    const envelope = this.envelope(name, payload);
    const aggregate = this.aggregateOf(envelope);
    if (aggregate) {
      await this.insertVersioned(manager, envelope, aggregate);
      return envelope;
    }
    await this.insert(manager, envelope.id, 'event', name, envelope);
    return envelope;
  }

  /**
   * A state-carrying event written by the same statement as the change it tells (one round trip
   * fewer on a hot write path; issue 27). `change` is the producer's own statement, written in its
   * repository: a data-modifying statement with `RETURNING`, numbered from `$1`. The event is
   * written and the aggregate's next version taken only when the change returns a row; answers
   * null when it returned none (nothing published). The payload is the state the change leaves:
   * the producer reads the aggregate under its row lock and applies the change to it in code.
   */
  async publishWithChange<N extends EventName>(
    manager: EntityManager,
    name: N,
    payload: EventPayloads[N],
    change: SqlStatement,
  ): Promise<EventEnvelope<N> | null> {
    const envelope = this.envelope(name, payload);
    const aggregate = this.aggregateOf(envelope);
    if (!aggregate) throw new Error(`${name} is a fact without a version: write it with publish()`);
    return (await this.insertVersioned(manager, envelope, aggregate, change)) ? envelope : null;
  }

  /**
   * The outbox row of a fact (an event without an aggregate, so no version to take) for a producer
   * that inserts it (`INSERT INTO outbox (id, kind, name, body)`) within its own statement, saving
   * the round trip of publish() on a hot path. The same transaction rules apply. Nothing nudges
   * the relay: its poll (OUTBOX_POLL_MS) takes such rows in batches, which suits a hot path whose
   * events nobody waits for.
   */
  factRow<N extends EventName>(name: N, payload: EventPayloads[N]): { id: string; kind: 'event'; name: N; body: EventEnvelope<N> } {
    if (EVENT_CATALOGUE[name].aggregate) throw new Error(`${name} carries an aggregate version: use publish()`);
    const body = this.envelope(name, payload);
    return { id: body.id, kind: 'event', name, body };
  }

  /**
   * factRow for a fact whose producer's statement fills in the fields `K` (what only it knows: a
   * message's seq, whether a like matched) with `completedFactBody` and a `PayloadCompletion` of
   * the same fields: the payload given here is typed without them, never with placeholders.
   */
  factRowToComplete<N extends EventName, K extends keyof EventPayloads[N]>(
    name: N,
    known: Omit<EventPayloads[N], K>,
  ): { id: string; kind: 'event'; name: N; body: Omit<EventEnvelope<N>, 'payload'> & { payload: Omit<EventPayloads[N], K> } } {
    // The statement adds the rest before the row is written.
    return this.factRow(name, known as EventPayloads[N]);
  }

  async enqueueJob<Q extends QueueName>(manager: EntityManager, queue: Q, data: JobPayloads[Q]): Promise<string> {
    const id = randomUUID();
    const envelope: JobEnvelope<Q> = { id, queue, createdAt: new Date().toISOString(), data };
    const requestId = currentRequestId();
    if (requestId) envelope.requestId = requestId;
    await this.insert(manager, id, 'job', queue, envelope);
    return id;
  }

  /** Publishes what is waiting; returns how many rows it handed on. Throws when Redis failed. */
  relayOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.relayBatch().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      this.connection ??= this.openConnection();
      // The consumers' workers read the queue under the same prefix (queuePrefix: a hash tag per queue on a cluster).
      queue = new Queue(name, { connection: this.connection, prefix: queuePrefix(this.options.keyPrefix, name, isRedisCluster(this.options)) });
      queue.on('error', () => undefined); // reported by the pass that failed, not once per reconnect
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Relays again, on the next pass, what was published within the replay window (a failover was seen). */
  replayRecent(): void {
    this.replayFrom = new Date(Date.now() - (this.options.failoverReplayMs ?? RELAY_FAILOVER_REPLAY_MS));
    // A relay driven by hand (OUTBOX_RELAY=off) replays on its next relayOnce().
    if (this.options.relayEnabled) setImmediate(() => this.nudge());
  }

  private openConnection(): RedisClient {
    const connection = createRelayConnection(this.options);
    // A node leaving the cluster's map (refreshed on a redirection, a failed node, or every 5 s) is
    // how a failover shows; a replica leaving too, and then the replay is only redundant.
    if (isClusterClient(connection)) {
      connection.on('-node', () => {
        this.logger.warn('a Redis Cluster node left: the outbox relays the last rows again');
        this.replayRecent();
      });
    }
    return connection;
  }

  private envelope<N extends EventName>(name: N, payload: EventPayloads[N]): EventEnvelope<N> {
    const envelope: EventEnvelope<N> = {
      id: randomUUID(),
      name,
      version: EVENT_CATALOGUE[name].version,
      producer: this.options.service,
      occurredAt: new Date().toISOString(),
      payload,
    };
    const requestId = currentRequestId();
    if (requestId) envelope.requestId = requestId;
    return envelope;
  }

  private async insert(manager: EntityManager, id: string, kind: 'event' | 'job', name: string, body: object) {
    await manager.query('INSERT INTO outbox (id, kind, name, body) VALUES ($1, $2, $3, $4)', [id, kind, name, body]);
    this.nudgeAfterCommit(manager);
  }

  /** The aggregate a state-carrying event is about, set on its envelope; null for a fact. */
  private aggregateOf(envelope: EventEnvelope): { type: string; id: string } | null {
    const definition = EVENT_CATALOGUE[envelope.name].aggregate;
    if (!definition) return null;
    const id = aggregateIdOf(envelope.name, envelope.payload as EventPayloads[EventName]);
    if (!id) throw new Error(`${envelope.name} needs its ${definition.idField} to be published`);
    envelope.aggregateType = definition.type;
    envelope.aggregateId = id;
    return { type: definition.type, id };
  }

  /**
   * The aggregate's next version taken and the event's outbox row written in one statement (one
   * round trip instead of two on every state-carrying write; issue 27), behind the producer's
   * `change` when there is one, and then only if the change returned a row. The counter is the
   * database's, so the envelope, built and typed here, receives its `aggregateVersion` in the
   * statement and here. False when the change returned no row.
   */
  private async insertVersioned(
    manager: EntityManager,
    envelope: EventEnvelope,
    aggregate: { type: string; id: string },
    change?: SqlStatement,
  ): Promise<boolean> {
    const n = change?.params.length ?? 0;
    const rows: { version: string }[] = await manager.query(
      `WITH ${change ? `change AS (${change.sql}),` : ''}
       next AS (
         INSERT INTO aggregate_version (aggregate_type, aggregate_id, version)
         SELECT $${n + 1}, $${n + 2}, 1 ${change ? 'WHERE EXISTS (SELECT 1 FROM change)' : ''}
         ON CONFLICT (aggregate_type, aggregate_id) DO UPDATE SET version = aggregate_version.version + 1
         RETURNING version)
       INSERT INTO outbox (id, kind, name, body)
       SELECT $${n + 3}, 'event', $${n + 4}, $${n + 5}::jsonb || jsonb_build_object('aggregateVersion', next.version) FROM next
       RETURNING body->>'aggregateVersion' AS version`,
      [...(change?.params ?? []), aggregate.type, aggregate.id, envelope.id, envelope.name, envelope],
    );
    if (rows.length === 0) return false;
    envelope.aggregateVersion = Number(rows[0].version);
    this.nudgeAfterCommit(manager);
    return true;
  }

  private async relayBatch(): Promise<number> {
    if (this.replayFrom) await this.unpublishSince(this.replayFrom);
    if (this.cluster && this.purgeDue) await this.purgeRelayed();
    const rows = await this.claim();
    if (rows.length === 0) return 0;
    const jobsByQueue = new Map<string, { name: string; data: object; opts: JobsOptions }[]>();
    for (const row of rows) {
      const targets =
        row.kind === 'event' ? EVENT_CATALOGUE[row.name as EventName].consumers.map(eventQueueName) : [row.name];
      for (const target of targets) {
        const jobs = jobsByQueue.get(target) ?? [];
        jobs.push({ name: row.name, data: row.body, opts: { ...EVENT_JOB_OPTIONS, jobId: row.id } });
        jobsByQueue.set(target, jobs);
      }
    }
    try {
      await withTimeout(
        Promise.all([...jobsByQueue].map(([target, jobs]) => this.queue(target).addBulk(jobs))),
        RELAY_PUBLISH_TIMEOUT_MS,
        `no answer from Redis within ${RELAY_PUBLISH_TIMEOUT_MS} ms`,
      );
    } catch (e) {
      await this.release(rows, e);
      throw e;
    }
    // On a cluster a purged row waits out the replay window published, like the others (purgeRelayed).
    const purged = this.cluster ? [] : rows.filter((r) => r.kind === 'event' && PURGED_AFTER_RELAY.has(r.name));
    if (this.cluster && rows.some((r) => r.kind === 'event' && PURGED_AFTER_RELAY.has(r.name))) this.schedulePurge();
    const kept = rows.filter((r) => !purged.includes(r));
    if (kept.length) {
      await this.relayQuery(
        'UPDATE outbox SET published_at = now(), claimed_until = NULL, last_error = NULL WHERE id = ANY($1::uuid[])',
        [kept.map((r) => r.id)],
      );
    }
    if (purged.length) await this.relayQuery('DELETE FROM outbox WHERE id = ANY($1::uuid[])', [purged.map((r) => r.id)]);
    return rows.length;
  }

  /** Marks the rows published since `from` unpublished, so the passes relay them again. */
  private async unpublishSince(from: Date): Promise<void> {
    const [, count] = await this.relayQuery<[unknown[], number]>(
      'UPDATE outbox SET published_at = NULL, claimed_until = NULL WHERE published_at >= $1',
      [from],
    );
    // A newer failover seen meanwhile keeps its own (later or earlier) start.
    if (this.replayFrom === from) this.replayFrom = null;
    this.logger.warn({ rows: count }, 'outbox rows relayed again after a Redis Cluster failover');
  }

  /**
   * Cluster only: deletes the purged-after-relay rows (user.deleted) once they are published longer
   * than the replay window, so a failover can still relay them again meanwhile.
   */
  private async purgeRelayed(): Promise<void> {
    this.purgeDue = false;
    const windowMs = this.options.failoverReplayMs ?? RELAY_FAILOVER_REPLAY_MS;
    await this.relayQuery(
      `DELETE FROM outbox WHERE kind = 'event' AND name = ANY($1::text[])
          AND published_at IS NOT NULL AND published_at < now() - make_interval(secs => $2::double precision / 1000)`,
      [[...PURGED_AFTER_RELAY], windowMs],
    );
    const [{ n }] = await this.relayQuery<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM outbox WHERE kind = 'event' AND name = ANY($1::text[]) AND published_at IS NOT NULL`,
      [[...PURGED_AFTER_RELAY]],
    );
    if (n > 0) this.schedulePurge();
  }

  private schedulePurge(): void {
    const windowMs = this.options.failoverReplayMs ?? RELAY_FAILOVER_REPLAY_MS;
    setTimeout(() => {
      this.purgeDue = true;
    }, windowMs + 1_000).unref();
  }

  /**
   * One statement, so one short transaction: the oldest unpublished rows this build knows and no
   * other relay holds, leased to this one. Unknown names are not even looked at, so they never
   * block the rows behind them.
   */
  private async claim(): Promise<ClaimedRow[]> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows] = await this.relayQuery<[ClaimedRow[], number]>(
      `UPDATE outbox o
          SET claimed_until = now() + make_interval(secs => $3::double precision / 1000), attempts = o.attempts + 1
         FROM (SELECT id FROM outbox
                WHERE published_at IS NULL
                  AND (claimed_until IS NULL OR claimed_until < now())
                  AND ((kind = 'event' AND name = ANY($1::text[])) OR (kind = 'job' AND name = ANY($2::text[])))
                ORDER BY created_at
                LIMIT $4
                FOR UPDATE SKIP LOCKED) claimable
        WHERE o.id = claimable.id
        RETURNING o.id, o.kind, o.name, o.body, o.created_at`,
      [KNOWN_EVENTS, KNOWN_QUEUES, RELAY_CLAIM_LEASE_MS, RELAY_BATCH_SIZE],
    );
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  }

  private async relayQuery<T = unknown>(sql: string, params: unknown[]): Promise<T> {
    this.relayRunner ??= this.dataSource.createQueryRunner();
    try {
      return (await this.relayRunner.query(sql, params)) as T;
    } catch (e) {
      // A broken connection (PostgreSQL restarted) must not stay the relay's: the next pass takes another.
      await this.releaseRelayRunner();
      throw e;
    }
  }

  private async releaseRelayRunner() {
    const runner = this.relayRunner;
    this.relayRunner = null;
    await runner?.release().catch(() => undefined);
  }

  /** Gives the rows back at once (rather than at the lease's end), with the reason. */
  private async release(rows: ClaimedRow[], error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    await this.relayQuery('UPDATE outbox SET claimed_until = NULL, last_error = $2 WHERE id = ANY($1::uuid[])', [
      rows.map((r) => r.id),
      message.slice(0, MAX_ERROR_LENGTH),
    ]);
  }

  private nudgeAfterCommit(manager: EntityManager) {
    // While Redis is failing the backoff paces the relay; writes must not hurry it.
    if (!this.options.relayEnabled || this.failures > 0) return;
    // The row is visible only after the caller's transaction commits: the commit nudges (see
    // onModuleInit), and the poll loop covers anything the nudge misses.
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.awaitingCommit.add(runner);
    else setImmediate(() => this.nudge());
  }

  /** A write committed: a pass now when the relay is idle, after a short gather when it is busy. */
  private nudge() {
    if (this.stopped || this.gathering) return;
    if (this.running) {
      // Rows committed while a pass runs may be newer than its claim: one more pass after it,
      // rather than waiting for the next poll.
      this.passWanted = true;
      return;
    }
    if (this.lastPassRows === 0) return this.tick();
    this.gathering = setTimeout(() => {
      this.gathering = null;
      this.tick();
    }, this.options.gatherMs ?? RELAY_GATHER_MS);
  }

  private tick() {
    if (this.stopped) return;
    if (this.running) {
      this.passWanted = true;
      return;
    }
    this.passWanted = false;
    this.relayOnce()
      .then((n) => {
        if (this.failures > 0) this.logger.info({ failures: this.failures }, 'outbox relay publishing again');
        this.failures = 0;
        this.lastPassRows = n;
        if (n === RELAY_BATCH_SIZE) setImmediate(() => this.tick());
        else if (this.passWanted) {
          this.passWanted = false;
          this.nudge();
        }
      })
      .catch((err) => {
        this.passWanted = false;
        this.lastPassRows = 0;
        this.failures += 1;
        // One line when the trouble starts, then one every ten failed passes.
        if (this.failures % 10 === 1) this.logger.warn({ err, failures: this.failures }, 'outbox relay failed; will retry');
      });
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick();
      const backoff = Math.min(this.options.pollIntervalMs * 2 ** this.failures, RELAY_MAX_BACKOFF_MS);
      this.schedule(this.failures > 0 ? Math.max(backoff, this.options.pollIntervalMs) : this.options.pollIntervalMs);
    }, ms);
    this.timer.unref();
  }
}
