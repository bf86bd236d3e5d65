import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ProfileUpdatedPayload } from '@mate/contracts';
import type { ShownMembers } from './pairs.repository';
import type { ReportedProfileSnapshot } from './safety.entities';

export interface KnownMember {
  userId: string;
  name: string | null;
  photo: string | null;
  profile: ReportedProfileSnapshot;
}

/** The profile a report keeps: everything profile.updated says, except where the member lives. */
export function profileSnapshot(payload: ProfileUpdatedPayload): ReportedProfileSnapshot {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { latitude, longitude, ...rest } = payload;
  return rest as ReportedProfileSnapshot;
}

/** The primary photo: the profile picture, else the first visible photo. */
export function primaryPhotoOf(payload: ProfileUpdatedPayload): string | null {
  return payload.profilePicture ?? payload.photos?.[0]?.url ?? null;
}

const ERASE_MEMBER = 'DELETE FROM safety_member WHERE user_id = $1::uuid';

/** `safety_member`: the members safety knows, from profile.updated. */
@Injectable()
export class MembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<KnownMember | null> {
    const rows: { user_id: string; name: string | null; profile_picture: string | null; profile: ReportedProfileSnapshot }[] =
      await this.dataSource.query('SELECT user_id, name, profile_picture, profile FROM safety_member WHERE user_id = $1', [userId]);
    const r = rows[0];
    return r ? { userId: r.user_id, name: r.name, photo: r.profile_picture, profile: r.profile } : null;
  }

  /** The members' names and photos as safety knows them now (a member it does not know: null). */
  async shownOf(manager: EntityManager, userIds: string[]): Promise<ShownMembers> {
    const rows: { user_id: string; name: string | null; profile_picture: string | null }[] = await manager.query(
      'SELECT user_id, name, profile_picture FROM safety_member WHERE user_id = ANY($1::uuid[])',
      [userIds],
    );
    const shown: ShownMembers = Object.fromEntries(userIds.map((id) => [id, null]));
    for (const r of rows) shown[r.user_id] = { name: r.name, photo: r.profile_picture };
    return shown;
  }

  /**
   * Written only by a newer profile version (the consumer checks it too; this keeps the row
   * honest). The payload as the consumer read it against its class.
   */
  async apply(manager: EntityManager, payload: ProfileUpdatedPayload, version: number): Promise<void> {
    await manager.query(
      `INSERT INTO safety_member (user_id, name, profile_picture, profile, version) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE
         SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, profile = EXCLUDED.profile,
             version = EXCLUDED.version, updated_at = now()
         WHERE safety_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
      [payload.userId, payload.name, primaryPhotoOf(payload), profileSnapshot(payload), version],
    );
  }

  /** Deletes the member's profile projection (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_MEMBER, [userId]);
  }
}
