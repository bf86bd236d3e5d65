import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The delivery log: one row per email job, never its body, link or token. */
export class CreateEmailDelivery1795284000000 implements MigrationInterface {
  name = 'CreateEmailDelivery1795284000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE email_delivery (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      job_key varchar(200) NOT NULL,
      template varchar(50) NOT NULL,
      "to" varchar(254) NOT NULL,
      status varchar(20) NOT NULL,
      attempts int NOT NULL DEFAULT 0,
      last_error varchar(500) NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz NULL,
      CONSTRAINT email_delivery_status_check CHECK (status IN ('sending', 'retrying', 'sent', 'failed'))
    )`);
    await q.query('CREATE UNIQUE INDEX email_delivery_job_key_idx ON email_delivery (job_key)');
    await q.query('CREATE INDEX email_delivery_to_idx ON email_delivery (lower("to"), created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS email_delivery');
  }
}
