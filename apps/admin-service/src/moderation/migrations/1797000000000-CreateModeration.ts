import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (append-only: the database itself refuses UPDATE, DELETE and TRUNCATE) and the
 * moderation decisions (one per report or photo: two admins deciding the same one at once, the
 * second insert fails and that admin is answered 409).
 */
export class CreateModeration1797000000000 implements MigrationInterface {
  name = 'CreateModeration1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY,
        action text NOT NULL,
        admin_id uuid NOT NULL,
        target_user_id uuid NULL,
        ip_address text NULL,
        user_agent text NULL,
        resource_type text NOT NULL,
        resource_id text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query('CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC, id DESC)');
    await q.query('CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC)');
    await q.query('CREATE INDEX audit_log_admin_idx ON audit_log (admin_id, created_at DESC)');
    await q.query('CREATE INDEX audit_log_target_idx ON audit_log (target_user_id, created_at DESC)');
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`
      CREATE TABLE moderation_decision (
        resource_type text NOT NULL,
        resource_id uuid NOT NULL,
        audit_id uuid NOT NULL REFERENCES audit_log (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (resource_type, resource_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS moderation_decision');
    await q.query('DROP TABLE IF EXISTS audit_log');
    await q.query('DROP FUNCTION IF EXISTS audit_log_append_only()');
  }
}
