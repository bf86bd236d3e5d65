import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `pair.shown` (issue 24 item 4): each member's name and photo as the other could last see them,
 * taken when the pair became blocked (`{ "<member id>": { "name": …, "photo": … } }`), kept while
 * either blocks the other and cleared when neither does. The block answer and the blocked list show
 * the blocked member from it, so neither depends on whether the other member blocks back nor follows
 * their profile afterwards. Pairs blocked before this migration take the members as safety knows
 * them now.
 */
export class SafetyPairShown1796500000000 implements MigrationInterface {
  name = 'SafetyPairShown1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE pair ADD COLUMN shown jsonb NULL');
    await q.query(`UPDATE pair p SET shown = jsonb_build_object(
        p.member_a::text, (SELECT jsonb_build_object('name', m.name, 'photo', m.profile_picture) FROM safety_member m WHERE m.user_id = p.member_a),
        p.member_b::text, (SELECT jsonb_build_object('name', m.name, 'photo', m.profile_picture) FROM safety_member m WHERE m.user_id = p.member_b))
      WHERE cardinality(p.blocked_by) > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE pair DROP COLUMN IF EXISTS shown');
  }
}
