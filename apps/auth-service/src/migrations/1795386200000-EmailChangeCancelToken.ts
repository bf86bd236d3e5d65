import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The link the current address gets to call a pending email change off (issue 7, item 2). */
export class EmailChangeCancelToken1795386200000 implements MigrationInterface {
  name = 'EmailChangeCancelToken1795386200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check');
    await q.query(
      `ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check
         CHECK (kind IN ('verify_email', 'reset_password', 'email_change', 'email_change_cancel'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auth_tokens WHERE kind = 'email_change_cancel'`);
    await q.query('ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_kind_check');
    await q.query(`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_kind_check CHECK (kind IN ('verify_email', 'reset_password', 'email_change'))`);
  }
}
