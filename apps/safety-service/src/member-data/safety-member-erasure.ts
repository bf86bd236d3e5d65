import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { SafetyRateLimiter } from '../safety/safety-rate-limits';

/**
 * A report's message snapshot without the deleted member's messages, their id as recipient
 * replaced by the stand-in. `$1` the member, `stand_in` the report's fresh id (a column of the
 * statement's CTE).
 */
const SNAPSHOT_WITHOUT_MEMBER = `(
  SELECT coalesce(jsonb_agg(CASE WHEN lower(e.m->>'recipientId') = $1::text
                                 THEN jsonb_set(e.m, '{recipientId}', to_jsonb(s.stand_in::text)) ELSE e.m END
                            ORDER BY e.n), '[]'::jsonb)
    FROM jsonb_array_elements(r.messages) WITH ORDINALITY AS e(m, n)
   WHERE lower(e.m->>'senderId') IS DISTINCT FROM $1::text)`;

/**
 * Reports the member made stay for the moderators with the reporter anonymised: a fresh id per
 * report; the reported member's profile snapshot and messages stay (evidence about them), the
 * reporter's own messages leave the snapshot. A snapshot still pending is closed empty: chat has
 * nothing of the member any more. $1 the member.
 */
const ANONYMISE_REPORTS_MADE_SQL = `
WITH s AS (SELECT id, gen_random_uuid() AS stand_in FROM report WHERE reporter_id = $1::uuid)
UPDATE report r
   SET reporter_id = s.stand_in,
       messages = CASE WHEN r.messages IS NULL THEN NULL ELSE ${SNAPSHOT_WITHOUT_MEMBER} END
  FROM s WHERE r.id = s.id`;

/**
 * Reports about the member stay (status, reason, the reporter's details) with the reported member
 * anonymised: a fresh id per report; their profile snapshot and their messages leave it. $1 the member.
 */
const ANONYMISE_REPORTS_ABOUT_SQL = `
WITH s AS (SELECT id, gen_random_uuid() AS stand_in FROM report WHERE reported_id = $1::uuid)
UPDATE report r
   SET reported_id = s.stand_in,
       reported_profile = NULL,
       messages = CASE WHEN r.messages IS NULL THEN NULL ELSE ${SNAPSHOT_WITHOUT_MEMBER} END
  FROM s WHERE r.id = s.id`;

/**
 * `user.deleted` in safety (README "Member data", docs/adr/0016-member-data.md), one transaction,
 * idempotent: blocks by and of the member and their pair rows go; reports they made and reports
 * about them stay for the moderators, anonymised; their profile projection, the kit's traces and
 * their rate-limit keys go.
 */
@Injectable()
export class SafetyMemberErasure {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly limits: SafetyRateLimiter,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);
    // Every block, unblock, unmatch and report takes the pair's row lock first: wait for those in flight.
    await manager.query('SELECT 1 FROM pair WHERE member_a = $1::uuid OR member_b = $1::uuid ORDER BY pair_id FOR UPDATE', [userId]);
    // The member's pending snapshots would ask chat about a pair that no longer exists there.
    await manager.query(
      `UPDATE report SET messages = '[]'::jsonb, messages_status = 'complete', messages_captured_at = now()
        WHERE messages_status = 'pending' AND (reporter_id = $1::uuid OR reported_id = $1::uuid)`,
      [userId],
    );
    await manager.query(ANONYMISE_REPORTS_MADE_SQL, [userId]);
    await manager.query(ANONYMISE_REPORTS_ABOUT_SQL, [userId]);
    await manager.query('DELETE FROM block WHERE blocker_id = $1::uuid OR blocked_id = $1::uuid', [userId]);
    await manager.query('DELETE FROM pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    await manager.query('DELETE FROM safety_member WHERE user_id = $1::uuid', [userId]);
    await this.limits.forget(userId);
    this.logger.info('member erased from safety');
  }
}
