import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MemberErasure1796000000000 } from '../gdpr/member-erasure';

/*
 * The kit's tables, defined by their migrations alone (the kit reads and writes them with plain
 * SQL, so no TypeORM entity mirrors them):
 * - outbox: a row per event or job a service must hand on, written in the same transaction as the
 *   change that caused it; the relay claims rows for a lease (`claimed_until`), publishes them
 *   outside any transaction and stamps `published_at` (`attempts`: claims; `last_error`: why the
 *   last publish failed);
 * - processed_event: a row per event a consumer has handled, with its outcome ('handled', or
 *   'stale', 'erased' or 'unreadable' when its handler did not run: EventOutcome);
 * - aggregate_version: the producer's last version of each aggregate, bumped under its row lock;
 * - applied_version: the highest version of each aggregate the consumer has applied;
 * - erased_member: members erased here, by a hash of their id (../gdpr/member-erasure.ts).
 */

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
export const KIT_MIGRATIONS = [CreateOutbox1763700000000, EventBackbone1763800000000, MemberErasure1796000000000];
