import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A row per event or job a service must hand on, written in the same transaction as the change
 * that caused it (transactional outbox). The relay claims rows for a lease (`claimed_until`),
 * publishes them outside any transaction and stamps `published_at`.
 */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxEntry {
  @PrimaryColumn('uuid')
  id!: string;

  /** 'event' (fanned out to every consumer in the catalogue) or 'job' (one named queue). */
  @Column({ type: 'varchar', length: 10 })
  kind!: 'event' | 'job';

  /** The event name, or the job queue name. */
  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'jsonb' })
  body!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  /** How often a relay claimed the row (1 once it is published without a hitch). */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** While in the future, a relay is publishing the row; others leave it alone. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  /** Why the last publish of this row failed (Redis down, ...); cleared once published. */
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;
}

/** A row per event a consumer has handled: the handler runs at most once per event id. */
@Entity({ name: 'processed_event' })
export class ProcessedEvent {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** 'handled', or 'stale' when a newer version of its aggregate had been applied already. */
  @Column({ type: 'varchar', length: 20, default: 'handled' })
  outcome!: ProcessedOutcome;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt!: Date;
}

export type ProcessedOutcome = 'handled' | 'stale';

/**
 * Producer side: the last version given to an event of each aggregate. The outbox bumps it in the
 * producer's transaction; the row lock it takes orders the versions of one aggregate by commit.
 */
@Entity({ name: 'aggregate_version' })
export class AggregateVersion {
  @PrimaryColumn({ name: 'aggregate_type', type: 'varchar', length: 50 })
  aggregateType!: string;

  @PrimaryColumn({ name: 'aggregate_id', type: 'varchar', length: 100 })
  aggregateId!: string;

  @Column({ type: 'bigint' })
  version!: string;
}

/** Consumer side: the highest version of each aggregate this service has applied. */
@Entity({ name: 'applied_version' })
export class AppliedVersion {
  @PrimaryColumn({ name: 'aggregate_type', type: 'varchar', length: 50 })
  aggregateType!: string;

  @PrimaryColumn({ name: 'aggregate_id', type: 'varchar', length: 100 })
  aggregateId!: string;

  @Column({ type: 'bigint' })
  version!: string;

  @Column({ name: 'applied_at', type: 'timestamptz', default: () => 'now()' })
  appliedAt!: Date;
}

export const OUTBOX_ENTITIES = [OutboxEntry, ProcessedEvent, AggregateVersion, AppliedVersion];

/** The shared migration every service with an outbox or an event consumer includes. */
export class CreateOutbox1763700000000 implements MigrationInterface {
  name = 'CreateOutbox1763700000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS outbox (
      id uuid PRIMARY KEY,
      kind varchar(10) NOT NULL,
      name varchar(100) NOT NULL,
      body jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz NULL,
      attempts int NOT NULL DEFAULT 0
    )`);
    await q.query(`CREATE INDEX IF NOT EXISTS outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL`);
    await q.query(`CREATE TABLE IF NOT EXISTS processed_event (
      event_id uuid PRIMARY KEY,
      name varchar(100) NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now()
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS processed_event');
    await q.query('DROP TABLE IF EXISTS outbox');
  }
}

/**
 * Aggregate versions (producer counter, consumer high-water mark), the relay's claim lease and
 * last error, and the outcome of each processed event (docs/adr/0004-event-backbone.md).
 */
export class EventBackbone1763800000000 implements MigrationInterface {
  name = 'EventBackbone1763800000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox
      ADD COLUMN IF NOT EXISTS claimed_until timestamptz NULL,
      ADD COLUMN IF NOT EXISTS last_error varchar(500) NULL`);
    await q.query(`ALTER TABLE processed_event ADD COLUMN IF NOT EXISTS outcome varchar(20) NOT NULL DEFAULT 'handled'`);
    await q.query(`CREATE TABLE IF NOT EXISTS aggregate_version (
      aggregate_type varchar(50) NOT NULL,
      aggregate_id varchar(100) NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (aggregate_type, aggregate_id)
    )`);
    await q.query(`CREATE TABLE IF NOT EXISTS applied_version (
      aggregate_type varchar(50) NOT NULL,
      aggregate_id varchar(100) NOT NULL,
      version bigint NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (aggregate_type, aggregate_id)
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS applied_version');
    await q.query('DROP TABLE IF EXISTS aggregate_version');
    await q.query('ALTER TABLE processed_event DROP COLUMN IF EXISTS outcome');
    await q.query('ALTER TABLE outbox DROP COLUMN IF EXISTS last_error, DROP COLUMN IF EXISTS claimed_until');
  }
}

/** Every migration of the kit's tables, in order: a service lists these before its own. */
export const KIT_MIGRATIONS = [CreateOutbox1763700000000, EventBackbone1763800000000];
