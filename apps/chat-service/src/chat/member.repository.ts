import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DELETED_MEMBER_NAME, type ProfileUpdatedPayload } from '@mate/contracts';

/** The projection row of an anonymised member: no profile event can name it, none overwrites it. */
const ANONYMISED_MEMBER_VERSION = 2_147_483_647;

/** profile.updated: an older version never overwrites a newer one. $1 member, $2 name, $3 picture, $4 version. */
const PROFILE_SQL = `
INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE
  SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, version = EXCLUDED.version, updated_at = now()
  WHERE chat_member.version < EXCLUDED.version OR EXCLUDED.version = 0`;

/** A deleted member's stand-in in one conversation. $1 its id, $2 its name, $3 ANONYMISED_MEMBER_VERSION. */
const ADD_STAND_IN_SQL = `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1::uuid, $2, NULL, $3)`;
const DROP_STAND_IN_SQL = 'DELETE FROM chat_member WHERE user_id = $1::uuid AND version = $2';
const FORGET_SQL = 'DELETE FROM chat_member WHERE user_id = $1::uuid';

/** `chat_member`: each member's name and picture as chat shows them, and deleted members' stand-ins. */
@Injectable()
export class MemberRepository {
  /** The name and picture conversations show, as of profile `version` (0: always applied). */
  async saveProfile(manager: EntityManager, profile: ProfileUpdatedPayload, version: number): Promise<void> {
    await manager.query(PROFILE_SQL, [profile.userId, profile.name, profile.profilePicture, version]);
  }

  /** A stand-in for a deleted member, shown as DELETED_MEMBER_NAME with no picture. */
  async addStandIn(manager: EntityManager, id: string): Promise<void> {
    await manager.query(ADD_STAND_IN_SQL, [id, DELETED_MEMBER_NAME, ANONYMISED_MEMBER_VERSION]);
  }

  /** Removes `id`'s row if it is a stand-in (both members of a conversation deleted). */
  async dropStandIn(manager: EntityManager, id: string): Promise<void> {
    await manager.query(DROP_STAND_IN_SQL, [id, ANONYMISED_MEMBER_VERSION]);
  }

  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_SQL, [userId]);
  }
}
