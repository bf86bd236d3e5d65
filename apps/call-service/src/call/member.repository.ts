import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProfileUpdatedPayload } from '@mate/contracts';

/** profile.updated: an older version never overwrites a newer one. $1 user, $2 name, $3 version, $4 picture. */
const MEMBER_PROFILE_SQL = `
INSERT INTO call_member (user_id, name, version, profile_picture) VALUES ($1::uuid, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE
  SET name = EXCLUDED.name, version = EXCLUDED.version, profile_picture = EXCLUDED.profile_picture, updated_at = now()
  WHERE call_member.version < EXCLUDED.version OR EXCLUDED.version = 0`;

const FORGET_SQL = 'DELETE FROM call_member WHERE user_id = $1::uuid';

/**
 * `call_member`: each member's name and picture as Call History shows them. (Their suspension is the
 * kit's projection, `kit_member_suspension`: docs/adr/0030-pair-and-suspension-projection.md.)
 */
@Injectable()
export class MemberRepository {
  /** The name and picture the history shows, as of profile `version` (0: always applied). */
  async saveProfile(manager: EntityManager, profile: ProfileUpdatedPayload, version: number): Promise<void> {
    await manager.query(MEMBER_PROFILE_SQL, [profile.userId, profile.name, version, profile.profilePicture]);
  }

  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_SQL, [userId]);
  }
}
