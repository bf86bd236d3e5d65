import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 24: an audit entry keeps its acting admin's name and email as they were when they acted,
 * so the trail keeps its author after that account is deleted. The table stays append-only
 * except for one narrow change: an author still unknown (null) may be filled in once, nothing
 * else. Existing rows are filled by AuditAuthorBackfill when the service starts: the names live in
 * auth and profile's databases, which a migration of this one cannot read; the rows of admins
 * already deleted stay null (their name is known nowhere any more).
 */
export class AuditAuthorSnapshot1797200000000 implements MigrationInterface {
  name = 'AuditAuthorSnapshot1797200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE audit_log ADD COLUMN admin_name text NULL, ADD COLUMN admin_email text NULL');
    await q.query('DROP TRIGGER audit_log_no_change ON audit_log');
    await q.query(`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    // Every column but the author's compared as one document, so a column added later is protected too.
    await q.query(`
      CREATE FUNCTION audit_log_author_fill_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (to_jsonb(NEW) - 'admin_name' - 'admin_email') = (to_jsonb(OLD) - 'admin_name' - 'admin_email')
           AND (OLD.admin_name IS NULL OR NEW.admin_name IS NOT DISTINCT FROM OLD.admin_name)
           AND (OLD.admin_email IS NULL OR NEW.admin_email IS NOT DISTINCT FROM OLD.admin_email) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: UPDATE is not allowed (only an unknown author may be filled in)' USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`CREATE TRIGGER audit_log_no_change BEFORE UPDATE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_author_fill_once()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER audit_log_no_change ON audit_log');
    await q.query('DROP FUNCTION audit_log_author_fill_once()');
    await q.query('DROP TRIGGER audit_log_no_delete ON audit_log');
    await q.query(`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query('ALTER TABLE audit_log DROP COLUMN admin_name, DROP COLUMN admin_email');
  }
}
