import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web push (issue 12): the members' push subscriptions (several devices each), their notification
 * preferences, and the two projections a push needs: members' names (profile.updated) and the
 * pairs' block state (user.blocked / user.unblocked / match.ended, ADR 0014).
 */
export class CreatePush1796100000000 implements MigrationInterface {
  name = 'CreatePush1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE push_subscription (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL,
      endpoint varchar(2048) NOT NULL,
      p256dh varchar(200) NOT NULL,
      auth varchar(100) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NULL
    )`);
    await q.query('CREATE UNIQUE INDEX push_subscription_endpoint_idx ON push_subscription (endpoint)');
    await q.query('CREATE INDEX push_subscription_user_idx ON push_subscription (user_id, created_at)');
    await q.query(`CREATE TABLE notification_preferences (
      user_id uuid PRIMARY KEY,
      new_matches boolean NOT NULL DEFAULT true,
      new_messages boolean NOT NULL DEFAULT true,
      new_likes boolean NOT NULL DEFAULT true,
      safety_alerts boolean NOT NULL DEFAULT true,
      admin_actions boolean NOT NULL DEFAULT true,
      private_previews boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE notification_member (
      user_id uuid PRIMARY KEY,
      name varchar(100) NULL,
      version int NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE notification_pair (
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      blocked boolean NOT NULL,
      version int NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (member_a, member_b),
      CONSTRAINT notification_pair_order_check CHECK (member_a < member_b)
    )`);
    await q.query('CREATE INDEX notification_pair_member_b_idx ON notification_pair (member_b)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'notification_pair',
      'notification_member',
      'notification_preferences',
      'push_subscription',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
