import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's account deletion (issue 12, docs/adr/0016-member-data.md, README "Member data"): a
 * finished call record stays for the other member with the deleted member's id replaced by a
 * fresh one. The final-status trigger now lets exactly that through: on a final record only
 * `caller_id` and `recipient_id` may change; its status, times and duration never do.
 */
export class CallMemberErasure1796100000000 implements MigrationInterface {
  name = 'CallMemberErasure1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION call_record_final_status() RETURNS trigger AS $$
      BEGIN
        IF OLD.status <> 'in_progress'
           AND (to_jsonb(NEW) - 'caller_id' - 'recipient_id') IS DISTINCT FROM (to_jsonb(OLD) - 'caller_id' - 'recipient_id') THEN
          RAISE EXCEPTION 'call % is % and never changes', OLD.id, OLD.status USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION call_record_final_status() RETURNS trigger AS $$
      BEGIN
        IF OLD.status <> 'in_progress' THEN
          RAISE EXCEPTION 'call % is % and never changes', OLD.id, OLD.status USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
  }
}
