import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analytics event store (issue 13; README "Analytics"): one append-only row per domain event,
 * keyed by the envelope id (a redelivered event is stored once), and the latest suspension state
 * per member. Rows are never updated but by a member's erasure, which replaces their id.
 */
export class CreateAnalyticsEventStore1796400000000 implements MigrationInterface {
  name = 'CreateAnalyticsEventStore1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE analytics_event (
      id uuid PRIMARY KEY,
      type text NOT NULL,
      user_id uuid NULL,
      other_user_id uuid NULL,
      subject_id text NULL,
      day date NOT NULL,
      occurred_at timestamptz NOT NULL,
      props jsonb NOT NULL DEFAULT '{}'::jsonb,
      recorded_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX analytics_event_type_day ON analytics_event (type, day)');
    await q.query('CREATE INDEX analytics_event_type_user ON analytics_event (type, user_id)');
    await q.query('CREATE INDEX analytics_event_user ON analytics_event (user_id)');
    await q.query('CREATE INDEX analytics_event_other_user ON analytics_event (other_user_id) WHERE other_user_id IS NOT NULL');
    await q.query('CREATE INDEX analytics_event_type_subject ON analytics_event (type, subject_id) WHERE subject_id IS NOT NULL');
    await q.query(`CREATE TABLE analytics_suspension (
      user_id uuid PRIMARY KEY,
      suspended boolean NOT NULL,
      version int NOT NULL,
      changed_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS analytics_suspension');
    await q.query('DROP TABLE IF EXISTS analytics_event');
  }
}
