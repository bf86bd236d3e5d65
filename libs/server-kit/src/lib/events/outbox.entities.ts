import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A row per event or job a service must hand on, written in the same transaction as the change
 * that caused it (transactional outbox). The relay publishes and stamps `published_at`.
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

  @Column({ type: 'int', default: 0 })
  attempts!: number;
}

/** A row per event a consumer has handled: the handler runs at most once per event id. */
@Entity({ name: 'processed_event' })
export class ProcessedEvent {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt!: Date;
}

export const OUTBOX_ENTITIES = [OutboxEntry, ProcessedEvent];

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
