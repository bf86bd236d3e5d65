import type { Type } from '@nestjs/common';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MigrationInterface } from 'typeorm';
import { CreateAnalyticsEventStore1796400000000 } from './migrations/1796400000000-CreateAnalyticsEventStore';

/**
 * The tables of migrations/1796400000000-CreateAnalyticsEventStore.ts. The store is written and
 * read with SQL (analytics-events.repository.ts writes it, analytics.repository.ts reads it); the entities describe the schema for TypeORM and the seeder.
 */
@Entity({ name: 'analytics_event' })
export class AnalyticsEvent {
  /** The event envelope's id (a seeded row: a fresh random UUID). */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** The event name, e.g. `like.created`. */
  @Column({ type: 'text' })
  type!: string;

  /** The acting member (liker, sender, reporter, caller, ...); a stand-in id once they are deleted. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  /** The other member (liked, recipient, reported, callee, ...), where there is one. */
  @Column({ name: 'other_user_id', type: 'uuid', nullable: true })
  otherUserId!: string | null;

  /** The thing the event is about: match, conversation, report, photo or call id. */
  @Column({ name: 'subject_id', type: 'text', nullable: true })
  subjectId!: string | null;

  /** The UTC day it happened (member.active: the payload's day). */
  @Column({ type: 'date' })
  day!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** Small facts the metrics read: matched, first, reason, status, skipped, outcome, durationSeconds, ... */
  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  props!: Record<string, unknown>;

  @Column({ name: 'recorded_at', type: 'timestamptz', default: () => 'now()' })
  recordedAt!: Date;
}

/** The latest suspension state per member (the newest `user` aggregate version applied). */
@Entity({ name: 'analytics_suspension' })
export class AnalyticsSuspension {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'boolean' })
  suspended!: boolean;

  @Column({ type: 'int' })
  version!: number;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}

/** The analytics event store's tables and their migrations, oldest first. */
export const ANALYTICS_ENTITIES: Type<unknown>[] = [AnalyticsEvent, AnalyticsSuspension];
export const ANALYTICS_MIGRATIONS: Type<MigrationInterface>[] = [CreateAnalyticsEventStore1796400000000];
