import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * safety-service's own tables (issue 10, docs/adr/0014-safety.md).
 *
 * - `safety_member`: what safety knows of a member, from profile.updated: the name and primary
 *   photo the blocked list shows, and the profile a report keeps (`profile`, the payload without
 *   coordinates). A member it does not know is 'Member not found' to block and report.
 * - `pair`: one row per pair of members that met safety (`member_a < member_b`, id
 *   `'<a>:<b>'`), the aggregate of the pair events: who blocks whom (`blocked_by`, the whole
 *   state every pair event carries), the current match (from match.created) and the last one
 *   ended. Every block, unblock, unmatch and report takes this row's lock first.
 * - `block`: one per blocker and blocked member; the blocked list, newest first.
 * - `report`: self-contained (no foreign key to anything an account deletion removes): the ids,
 *   reason, details, time, moderation status, and snapshots of the reported profile and of the
 *   last messages between the two (`messages_status` 'pending' until chat-service gave them).
 */
export class CreateSafety1795700000000 implements MigrationInterface {
  name = 'CreateSafety1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE safety_member (
      user_id uuid PRIMARY KEY,
      name text NULL,
      profile_picture text NULL,
      profile jsonb NOT NULL,
      version int NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE pair (
      pair_id text PRIMARY KEY,
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      blocked_by uuid[] NOT NULL DEFAULT '{}',
      match_id uuid NULL,
      matched_at timestamptz NULL,
      ended_match_id uuid NULL,
      ended_at timestamptz NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pair_order_check CHECK (member_a < member_b),
      CONSTRAINT pair_id_check CHECK (pair_id = member_a::text || ':' || member_b::text),
      CONSTRAINT pair_members_key UNIQUE (member_a, member_b)
    )`);
    await q.query(`CREATE TABLE block (
      id uuid PRIMARY KEY,
      blocker_id uuid NOT NULL,
      blocked_id uuid NOT NULL,
      reason text NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT block_not_self_check CHECK (blocker_id <> blocked_id),
      CONSTRAINT block_pair_key UNIQUE (blocker_id, blocked_id)
    )`);
    await q.query('CREATE INDEX block_blocker_created_idx ON block (blocker_id, created_at DESC)');
    await q.query(`CREATE TABLE report (
      id uuid PRIMARY KEY,
      reporter_id uuid NOT NULL,
      reported_id uuid NOT NULL,
      reason text NOT NULL,
      details text NULL,
      status text NOT NULL DEFAULT 'pending',
      resolution text NULL,
      resolved_at timestamptz NULL,
      created_at timestamptz NOT NULL,
      reported_profile jsonb NULL,
      messages jsonb NULL,
      messages_status text NOT NULL,
      messages_captured_at timestamptz NULL,
      CONSTRAINT report_not_self_check CHECK (reporter_id <> reported_id),
      CONSTRAINT report_reason_check
        CHECK (reason IN ('inappropriate_content', 'harassment', 'fake_profile', 'spam', 'underage', 'other')),
      CONSTRAINT report_status_check CHECK (status IN ('pending', 'reviewed', 'dismissed')),
      CONSTRAINT report_messages_status_check CHECK (messages_status IN ('pending', 'complete'))
    )`);
    // The 24-hour repeat rule: a reporter's reports of one member, newest first.
    await q.query('CREATE INDEX report_reporter_reported_idx ON report (reporter_id, reported_id, created_at DESC)');
    // The moderators' queue (admin issue): by status, oldest first.
    await q.query('CREATE INDEX report_status_created_idx ON report (status, created_at)');
    await q.query(`CREATE INDEX report_messages_pending_idx ON report (created_at) WHERE messages_status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS report');
    await q.query('DROP TABLE IF EXISTS block');
    await q.query('DROP TABLE IF EXISTS pair');
    await q.query('DROP TABLE IF EXISTS safety_member');
  }
}
