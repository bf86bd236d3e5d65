import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Days of activity kept per member (the dedupe needs only today; the export lists these). A year
 * and a bit, so a yearly retention or churn question can still be answered from auth's side.
 */
export const MEMBER_ACTIVITY_RETENTION_DAYS = 400;

/**
 * Records a member's day only when it is new, and only then the account's last activity. Ids of
 * accounts that do not exist (deleted) are skipped; the row lock (FOR KEY SHARE) makes a
 * concurrent erasure wait for it or be seen.
 * $1 user, $2 day, $3 at.
 */
const RECORD_DAY = `
WITH account AS (SELECT id FROM users WHERE id = $1::uuid FOR KEY SHARE),
inserted AS (
  INSERT INTO member_activity_day (user_id, day, at) SELECT id, $2::date, $3::timestamptz FROM account
  ON CONFLICT (user_id, day) DO NOTHING
  RETURNING user_id
), pruned AS (
  -- Only the last MEMBER_ACTIVITY_RETENTION_DAYS days are kept: a member's older days go when
  -- they are next active (the primary key's index makes it a short range delete of their own rows).
  DELETE FROM member_activity_day WHERE user_id = $1::uuid AND day < $2::date - ${MEMBER_ACTIVITY_RETENTION_DAYS}
), touched AS (
  UPDATE users SET last_active_at = greatest(coalesce(last_active_at, $3::timestamptz), $3::timestamptz)
   WHERE id IN (SELECT user_id FROM inserted)
  RETURNING id
)
SELECT EXISTS (SELECT 1 FROM account) AS known, EXISTS (SELECT 1 FROM touched) AS recorded`;

const DAYS_OF_MEMBER = `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM member_activity_day WHERE user_id = $1 ORDER BY day`;

const DELETE_DAYS_OF_MEMBER = 'DELETE FROM member_activity_day WHERE user_id = $1';

/** `member_activity_day`: the UTC days each member used the app (issue 13). */
@Injectable()
export class MemberActivityRepository {
  /** `known`: the account exists; `recorded`: the day was new and the account's last activity moved. */
  async recordDay(manager: EntityManager, userId: string, day: string, at: Date): Promise<{ known: boolean; recorded: boolean }> {
    const [row]: { known: boolean; recorded: boolean }[] = await manager.query(RECORD_DAY, [userId, day, at]);
    return row;
  }

  /** The member's active days, oldest first, as `YYYY-MM-DD`. */
  async daysOf(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = await manager.query<{ day: string }[]>(DAYS_OF_MEMBER, [userId]);
    return rows.map((r) => r.day);
  }

  async deleteDaysOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(DELETE_DAYS_OF_MEMBER, [userId]);
  }
}
