import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProfileUpdatedPayload } from '@mate/contracts';

/** profile.updated: an older version never overwrites a newer one. $1 user, $2 name, $3 version, $4 picture. */
const MEMBER_PROFILE_SQL = `
INSERT INTO call_member (user_id, name, version, profile_picture) VALUES ($1::uuid, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE
  SET name = EXCLUDED.name, version = EXCLUDED.version, profile_picture = EXCLUDED.profile_picture, updated_at = now()
  WHERE call_member.version < EXCLUDED.version OR EXCLUDED.version = 0`;

/** user.suspended / user.unsuspended: the member's whole suspension state. $1 user, $2 suspended. */
const MEMBER_SUSPENDED_SQL = `
INSERT INTO call_member (user_id, suspended) VALUES ($1::uuid, $2::boolean)
ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`;

const FORGET_SQL = 'DELETE FROM call_member WHERE user_id = $1::uuid';

/** `call_member`: each member's name, picture and suspension as Call History shows and call:initiate applies them. */
@Injectable()
export class MemberRepository {
  /** The name and picture the history shows, as of profile `version` (0: always applied). */
  async saveProfile(manager: EntityManager, profile: ProfileUpdatedPayload, version: number): Promise<void> {
    await manager.query(MEMBER_PROFILE_SQL, [profile.userId, profile.name, version, profile.profilePicture]);
  }

  async saveSuspension(manager: EntityManager, userId: string, suspended: boolean): Promise<void> {
    await manager.query(MEMBER_SUSPENDED_SQL, [userId, suspended]);
  }

  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_SQL, [userId]);
  }
}
