import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { mutualRulesSql } from '../candidates/candidate-rules';

/** One page of likers (newest like first) and how many there are in all. */
export interface LikersPage {
  total: number;
  likers: { userId: string; likedAt: Date }[];
}

/**
 * The members who liked `$1` and whom `$1` has not answered: no like or pass of theirs on the
 * liker, no match of the pair (a seeded or older match may stand without the swipes), and the
 * pair within the rules the like back is checked against (mutualRulesSql, both ways): the liker
 * suggestible (so neither suspended nor deleted), neither of the two blocking the other, each in
 * the other's preferences. A liker listed is therefore one the like back accepts.
 * `$2` limit, `$3` offset. One row even when the page is empty, so the total always comes back.
 */
export const LIKES_RECEIVED_SQL = `
WITH likers AS (
  SELECT s.swiper_id, s.created_at
  FROM swipe s
  JOIN candidate v ON v.user_id = $1::uuid
  JOIN candidate c ON c.user_id = s.swiper_id
  WHERE s.target_id = $1::uuid AND s.liked
    AND NOT EXISTS (SELECT 1 FROM swipe r WHERE r.swiper_id = $1::uuid AND r.target_id = s.swiper_id)
    AND NOT EXISTS (SELECT 1 FROM match m
      WHERE m.user_a = least(s.swiper_id, $1::uuid) AND m.user_b = greatest(s.swiper_id, $1::uuid))
    AND ${mutualRulesSql('v', 'c')}
), page AS (
  SELECT swiper_id, created_at FROM likers ORDER BY created_at DESC, swiper_id LIMIT $2 OFFSET $3
)
SELECT t.total, p.swiper_id AS "userId", p.created_at AS "likedAt"
FROM (SELECT count(*)::int AS total FROM likers) t LEFT JOIN page p ON true
ORDER BY p.created_at DESC, p.swiper_id`;

/** The likes a member received and has not answered yet, read from matching's own tables. */
@Injectable()
export class LikesReceivedRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(userId: string, limit: number, offset: number): Promise<LikersPage> {
    const rows: { total: number; userId: string | null; likedAt: Date | null }[] =
      await this.dataSource.query(LIKES_RECEIVED_SQL, [userId, limit, offset]);
    return {
      total: rows[0]?.total ?? 0,
      likers: rows.flatMap((r) => (r.userId && r.likedAt ? [{ userId: r.userId, likedAt: r.likedAt }] : [])),
    };
  }
}
