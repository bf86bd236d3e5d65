import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The statements a service's migration runs to move its own suspension state into the kit's
 * projection (docs/adr/0030-pair-and-suspension-projection.md), written once for every service.
 * Each returns the `up` and `down` statement lists; the migration runs them in order.
 */
export interface ProjectionMigrationStatements {
  up: string[];
  down: string[];
}

/**
 * A service's migration that switches it onto a kit projection: it runs the kit's statements for
 * the switch (`suspensionColumnIntoKit`, `blockedPairTableIntoKit`, ...), `up` or `down`, in order.
 * The subclass names itself and its statements; its comment says what the switch means for it.
 */
export abstract class ProjectionSwitchMigration implements MigrationInterface {
  abstract readonly name: string;
  protected abstract readonly statements: ProjectionMigrationStatements;

  async up(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.down) await q.query(statement);
  }
}

/**
 * Every member `<table>.<column>` holds is copied into `kit_member_suspension` (the kit's migration
 * created it just before). The column kept no time, so the row's last change (`updated_at`) stands
 * for when the suspension began.
 *
 * A replica of the previous release still running during the roll writes the column: a trigger
 * (`<table>_suspension_to_kit`, and `<table>_erasure_to_kit` for its deletes) carries each of its
 * writes into the kit's table, so none it applies is lost. The previous release writes the column
 * only when it applies a suspension state; its other inserts leave it at the default, NULL from now
 * on, so the trigger tells the two apart. The copy runs last: the ALTER holds the table until the
 * commit, so a write of the previous release lands either before the copy (copied) or after the
 * commit (carried by the trigger). A later deploy drops the triggers and the column.
 */
export function suspensionColumnIntoKit(opts: {
  table: string;
  idColumn?: string;
  column?: string;
}): ProjectionMigrationStatements {
  const { table, idColumn = 'user_id', column = 'suspended' } = opts;
  const fn = `${table}_suspension_to_kit`;
  return {
    up: [
      `ALTER TABLE ${table} ALTER COLUMN ${column} DROP NOT NULL, ALTER COLUMN ${column} SET DEFAULT NULL`,
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM kit_member_suspension WHERE user_id = OLD.${idColumn};
        ELSIF NEW.${column} THEN
          INSERT INTO kit_member_suspension (user_id, suspended_at) VALUES (NEW.${idColumn}, now())
            ON CONFLICT (user_id) DO NOTHING;
        ELSE
          DELETE FROM kit_member_suspension WHERE user_id = NEW.${idColumn};
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER ${fn}
      AFTER INSERT OR UPDATE OF ${column} ON ${table}
      FOR EACH ROW WHEN (NEW.${column} IS NOT NULL) EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${table}_erasure_to_kit
      AFTER DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
      `INSERT INTO kit_member_suspension (user_id, suspended_at)
      SELECT ${idColumn}, updated_at FROM ${table} WHERE ${column}
      ON CONFLICT (user_id) DO NOTHING`,
    ],
    down: [
      `DROP TRIGGER IF EXISTS ${table}_erasure_to_kit ON ${table}`,
      `DROP TRIGGER IF EXISTS ${fn} ON ${table}`,
      `DROP FUNCTION IF EXISTS ${fn}()`,
      `UPDATE ${table} m SET ${column} = EXISTS (SELECT 1 FROM kit_member_suspension k WHERE k.user_id = m.${idColumn})`,
      `ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT false, ALTER COLUMN ${column} SET NOT NULL`,
    ],
  };
}

/**
 * Every `<table>` pair row is copied into `kit_pair` (the kit's migration created it just before),
 * with its version (and its `ended_before` when the service kept one). Which of the two blocks was
 * never kept by a service, only that one does: a blocked pair is copied as blocked by both, so it
 * reads as blocked until the pair's next event writes its whole state. A trigger (`<table>_to_kit`)
 * carries each write of a previous release's replica (a pair event's state, an erasure) into
 * `kit_pair` during the roll. The migration locks the table itself (before these statements) and
 * moves any table of ended matches on its own.
 */
export function pairTableIntoKit(opts: {
  table: string;
  endedBefore: boolean;
}): ProjectionMigrationStatements {
  const { table, endedBefore } = opts;
  const fn = `${table}_to_kit`;
  const blockedBy = (row: string): string =>
    `CASE WHEN ${row}blocked THEN ARRAY[${row}member_a, ${row}member_b] ELSE '{}'::uuid[] END`;
  const triggerUpsert = endedBefore
    ? `INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version)
            VALUES (NEW.member_a, NEW.member_b,
                    ${blockedBy('NEW.')},
                    NEW.ended_before, NEW.version)`
    : `INSERT INTO kit_pair (member_a, member_b, blocked_by, version)
            VALUES (NEW.member_a, NEW.member_b,
                    ${blockedBy('NEW.')}, NEW.version)`;
  const endedBeforeSet = endedBefore
    ? `ended_before = greatest(kit_pair.ended_before, EXCLUDED.ended_before),\n                  `
    : '';
  return {
    up: [
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM kit_pair WHERE member_a = OLD.member_a AND member_b = OLD.member_b;
        ELSE
          ${triggerUpsert}
            ON CONFLICT (member_a, member_b) DO UPDATE
              SET blocked_by = CASE WHEN NOT NEW.blocked THEN '{}'::uuid[]
                                    WHEN cardinality(kit_pair.blocked_by) > 0 THEN kit_pair.blocked_by
                                    ELSE EXCLUDED.blocked_by END,
                  ${endedBeforeSet}version = greatest(kit_pair.version, EXCLUDED.version), updated_at = now();
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER ${fn}
      AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
      endedBefore
        ? `INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version, updated_at)
      SELECT member_a, member_b, ${blockedBy('')},
             ended_before, version, updated_at
        FROM ${table}
      ON CONFLICT (member_a, member_b) DO NOTHING`
        : `INSERT INTO kit_pair (member_a, member_b, blocked_by, version, updated_at)
      SELECT member_a, member_b, ${blockedBy('')}, version, updated_at
        FROM ${table}
      ON CONFLICT (member_a, member_b) DO NOTHING`,
    ],
    down: [
      `DROP TRIGGER IF EXISTS ${fn} ON ${table}`,
      `DROP FUNCTION IF EXISTS ${fn}()`,
      endedBefore
        ? `INSERT INTO ${table} (member_a, member_b, blocked, ended_before, version, updated_at)
      SELECT member_a, member_b, cardinality(blocked_by) > 0, ended_before, version, updated_at FROM kit_pair
      ON CONFLICT (member_a, member_b) DO UPDATE
        SET blocked = EXCLUDED.blocked, ended_before = EXCLUDED.ended_before, version = EXCLUDED.version`
        : `INSERT INTO ${table} (member_a, member_b, blocked, version, updated_at)
      SELECT member_a, member_b, cardinality(blocked_by) > 0, version, updated_at FROM kit_pair
      ON CONFLICT (member_a, member_b) DO UPDATE SET blocked = EXCLUDED.blocked, version = EXCLUDED.version`,
    ],
  };
}

/**
 * A service's `blocked_pair` (`user_a < user_b`, `blocked_by` never empty: the pairs of whom one
 * blocks the other, and who) moves into `kit_pair` (the kit's migration created it just before):
 * its rows are copied (the same ordered pairs and `blocked_by`; no version or end time, which such
 * a table never kept), then the table gives way to a view of the kit's table under its old name and
 * columns, through which a replica of the previous release still running during the roll reads and
 * writes the kit's table (a plain view of one table takes INSERT ... ON CONFLICT and DELETE). The
 * view shows every pair row, also one the new release keeps after an unblock (`blocked_by` empty):
 * such a replica then reads that pair as blocked until it is replaced, failing closed, as it would
 * have before the unblock reached it. The first statement locks the table until the commit, so a
 * write of the previous release lands before the copy or, after it, through the view. A later
 * deploy drops the view.
 */
export function blockedPairTableIntoKit(): ProjectionMigrationStatements {
  return {
    up: [
      'LOCK TABLE blocked_pair IN EXCLUSIVE MODE',
      `INSERT INTO kit_pair (member_a, member_b, blocked_by, updated_at)
      SELECT user_a, user_b, blocked_by, updated_at FROM blocked_pair
      ON CONFLICT (member_a, member_b) DO NOTHING`,
      'DROP TABLE blocked_pair',
      `CREATE VIEW blocked_pair AS
      SELECT member_a AS user_a, member_b AS user_b, blocked_by, updated_at FROM kit_pair`,
    ],
    down: [
      'DROP VIEW IF EXISTS blocked_pair',
      `CREATE TABLE blocked_pair (
      user_a uuid NOT NULL,
      user_b uuid NOT NULL,
      blocked_by uuid[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_a, user_b),
      CONSTRAINT blocked_pair_order_check CHECK (user_a < user_b),
      CONSTRAINT blocked_pair_blocked_by_check CHECK (cardinality(blocked_by) > 0)
    )`,
      `INSERT INTO blocked_pair (user_a, user_b, blocked_by, updated_at)
      SELECT member_a, member_b, blocked_by, updated_at FROM kit_pair WHERE cardinality(blocked_by) > 0`,
    ],
  };
}
