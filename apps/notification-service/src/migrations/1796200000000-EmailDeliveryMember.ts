import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account an email is about (issue 12): a member's export lists their emails and their
 * deletion erases them by id. Null for emails logged before it (their jobs named no account).
 */
export class EmailDeliveryMember1796200000000 implements MigrationInterface {
  name = 'EmailDeliveryMember1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE email_delivery ADD COLUMN IF NOT EXISTS user_id uuid NULL');
    await q.query('CREATE INDEX IF NOT EXISTS email_delivery_user_idx ON email_delivery (user_id, created_at) WHERE user_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS email_delivery_user_idx');
    await q.query('ALTER TABLE email_delivery DROP COLUMN IF EXISTS user_id');
  }
}
