import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The member's profile picture (issue 25), from profile.updated like the name: Call History shows
 * it next to each call, as the Messages list does. Pictures fill in with each member's next
 * profile.updated.
 */
export class CallMemberPicture1796300000000 implements MigrationInterface {
  name = 'CallMemberPicture1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE call_member ADD COLUMN profile_picture text NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE call_member DROP COLUMN IF EXISTS profile_picture');
  }
}
