import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * call-service's own tables (issue 11, docs/adr/0015-calls.md).
 *
 * Projections from events (read only by the signalling rules):
 * - `call_member`: a member's profile name (profile.updated, newest aggregate version wins); the
 *   server puts it in call:incoming, never the client's `callerName`.
 * - `call_match`: the matches of each pair (match.created) with the pair version they were made
 *   under; `call_ended_match`: matches a pair event named as ended.
 * - `call_pair`: the pair's safety state (user.blocked, user.unblocked, match.ended: whole state,
 *   applied in pair-version order). A pair may call while one of its matches is live
 *   (call.repository.ts liveMatch, the rule chat applies).
 *
 * `call_record`: one row per call attempt. The status machine is enforced here: a trigger refuses
 * any change of a final status, and every transition is a conditional UPDATE on
 * `status = 'in_progress'`, so of two racing transitions exactly one wins. `*_offline_since` is
 * when the sweeper first saw that member with no socket during the call.
 */
export class CreateCall1795900000000 implements MigrationInterface {
  name = 'CreateCall1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE call_member (
      user_id uuid PRIMARY KEY,
      name text NULL,
      version int NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE call_match (
      match_id uuid PRIMARY KEY,
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      matched_at timestamptz NOT NULL,
      pair_version int NULL,
      CONSTRAINT call_match_pair_order_check CHECK (member_a < member_b)
    )`);
    await q.query('CREATE INDEX call_match_pair_idx ON call_match (member_a, member_b)');
    await q.query(`CREATE TABLE call_ended_match (match_id uuid PRIMARY KEY)`);
    await q.query(`CREATE TABLE call_pair (
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      blocked boolean NOT NULL,
      ended_before timestamptz NULL,
      version int NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (member_a, member_b),
      CONSTRAINT call_pair_order_check CHECK (member_a < member_b)
    )`);
    await q.query(`CREATE TABLE call_record (
      id uuid PRIMARY KEY,
      caller_id uuid NOT NULL,
      recipient_id uuid NOT NULL,
      status text NOT NULL,
      started_at timestamptz NOT NULL,
      answered_at timestamptz NULL,
      ended_at timestamptz NULL,
      duration_seconds int NULL,
      caller_offline_since timestamptz NULL,
      recipient_offline_since timestamptz NULL,
      CONSTRAINT call_record_status_check CHECK (status IN ('in_progress', 'completed', 'missed', 'rejected', 'failed')),
      CONSTRAINT call_record_final_check CHECK ((status = 'in_progress') = (ended_at IS NULL)),
      CONSTRAINT call_record_completed_check CHECK (status <> 'completed' OR answered_at IS NOT NULL),
      CONSTRAINT call_record_not_self_check CHECK (caller_id <> recipient_id)
    )`);
    await q.query(`CREATE FUNCTION call_record_final_status() RETURNS trigger AS $$
      BEGIN
        IF OLD.status <> 'in_progress' THEN
          RAISE EXCEPTION 'call % is % and never changes', OLD.id, OLD.status USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await q.query(`CREATE TRIGGER call_record_final_status BEFORE UPDATE ON call_record
      FOR EACH ROW EXECUTE FUNCTION call_record_final_status()`);
    await q.query('CREATE INDEX call_record_caller_idx ON call_record (caller_id, started_at DESC)');
    await q.query('CREATE INDEX call_record_recipient_idx ON call_record (recipient_id, started_at DESC)');
    await q.query(
      `CREATE INDEX call_record_active_idx ON call_record (started_at) WHERE status = 'in_progress'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS call_record');
    await q.query('DROP FUNCTION IF EXISTS call_record_final_status()');
    await q.query('DROP TABLE IF EXISTS call_pair');
    await q.query('DROP TABLE IF EXISTS call_ended_match');
    await q.query('DROP TABLE IF EXISTS call_match');
    await q.query('DROP TABLE IF EXISTS call_member');
  }
}
