import { Injectable } from '@nestjs/common';
import { lockMembersAgainstErasure } from '@mate/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferenceKey,
  type NotificationPreferencesDto,
} from '@mate/contracts';

/** A member's devices: more than this and the oldest subscription is dropped. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

export interface StoredSubscription {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The column of each preference (the DTO's keys are the spec's camelCase). */
const PREFERENCE_COLUMNS: Record<NotificationPreferenceKey, string> = {
  newMatches: 'new_matches',
  newMessages: 'new_messages',
  newLikes: 'new_likes',
  safetyAlerts: 'safety_alerts',
  adminActions: 'admin_actions',
  privatePreviews: 'private_previews',
};

type Queryable = Pick<EntityManager, 'query'>;

/** The SQL of push subscriptions, preferences and the projections pushes read. */
@Injectable()
export class PushRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a device's subscription for the member. An endpoint is one browser: subscribed again
   * (new keys, or another member signed in there) the row moves to this member with the new keys.
   * Past MAX_SUBSCRIPTIONS_PER_MEMBER the oldest of the member's subscriptions go.
   */
  async saveSubscription(userId: string, endpoint: string, p256dh: string, auth: string): Promise<'saved' | 'erased'> {
    return this.dataSource.transaction(async (m) => {
      // A request that passed its session check just before the member's deletion must not write
      // them back after notification-service erased them (ADR 0016).
      if (await lockMembersAgainstErasure(m, [userId])) return 'erased';
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('push-member:' || $1::text, 0))`, [
        userId,
      ]);
      await m.query(
        `INSERT INTO push_subscription (user_id, endpoint, p256dh, auth) VALUES ($1::uuid, $2, $3, $4)
         ON CONFLICT (endpoint) DO UPDATE
           SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()`,
        [userId, endpoint, p256dh, auth],
      );
      await m.query(
        `DELETE FROM push_subscription WHERE id IN (
           SELECT id FROM push_subscription WHERE user_id = $1::uuid
           ORDER BY created_at DESC, id OFFSET $2)`,
        [userId, MAX_SUBSCRIPTIONS_PER_MEMBER],
      );
      return 'saved';
    });
  }

  /** Removes one of the member's subscriptions (by endpoint) or, without one, all of them. */
  async removeSubscriptions(userId: string, endpoint?: string): Promise<number> {
    const [, count]: [unknown, number] =
      endpoint === undefined
        ? await this.dataSource.query('DELETE FROM push_subscription WHERE user_id = $1::uuid', [userId])
        : await this.dataSource.query(
            'DELETE FROM push_subscription WHERE user_id = $1::uuid AND endpoint = $2',
            [userId, endpoint],
          );
    return count;
  }

  /** A subscription the push service said is gone (404/410). */
  async deleteSubscription(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM push_subscription WHERE id = $1::uuid', [id]);
  }

  async markUsed(id: string): Promise<void> {
    await this.dataSource.query('UPDATE push_subscription SET last_used_at = now() WHERE id = $1::uuid', [
      id,
    ]);
  }

  async subscriptionsOf(userId: string, q: Queryable = this.dataSource): Promise<StoredSubscription[]> {
    const rows: Record<string, unknown>[] = await q.query(
      'SELECT * FROM push_subscription WHERE user_id = $1::uuid ORDER BY created_at, id',
      [userId],
    );
    return rows.map(toSubscription);
  }

  async subscriptionById(id: string): Promise<StoredSubscription | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      'SELECT * FROM push_subscription WHERE id = $1::uuid',
      [id],
    );
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  /** The member's preferences; the defaults (spec 001 §3) until one was changed. */
  async preferencesOf(userId: string, q: Queryable = this.dataSource): Promise<NotificationPreferencesDto> {
    const rows: Record<string, boolean>[] = await q.query(
      'SELECT * FROM notification_preferences WHERE user_id = $1::uuid',
      [userId],
    );
    const row = rows[0];
    if (!row) return { ...DEFAULT_NOTIFICATION_PREFERENCES };
    const prefs = { ...DEFAULT_NOTIFICATION_PREFERENCES };
    for (const [key, column] of Object.entries(PREFERENCE_COLUMNS) as [NotificationPreferenceKey, string][]) {
      prefs[key] = row[column] === true;
    }
    return prefs;
  }

  /** Sets one preference (the others keep their value or default) and returns them all. */
  async setPreference(
    userId: string,
    key: NotificationPreferenceKey,
    value: boolean,
  ): Promise<NotificationPreferencesDto | 'erased'> {
    const column = PREFERENCE_COLUMNS[key];
    const written = await this.dataSource.transaction(async (m) => {
      if (await lockMembersAgainstErasure(m, [userId])) return false;
      await m.query(
        `INSERT INTO notification_preferences (user_id, ${column}) VALUES ($1::uuid, $2)
         ON CONFLICT (user_id) DO UPDATE SET ${column} = EXCLUDED.${column}, updated_at = now()`,
        [userId, value],
      );
      return true;
    });
    return written ? this.preferencesOf(userId) : 'erased';
  }

  /** profile.updated: an older version never overwrites a newer one (version 0: an envelope without one). */
  async saveMemberName(
    m: EntityManager,
    userId: string,
    name: string | null,
    version: number,
  ): Promise<void> {
    await m.query(
      `INSERT INTO notification_member (user_id, name, version) VALUES ($1::uuid, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, version = EXCLUDED.version, updated_at = now()
         WHERE notification_member.version <= EXCLUDED.version OR EXCLUDED.version = 0`,
      [userId, name, version],
    );
  }

  async nameOf(userId: string, q: Queryable = this.dataSource): Promise<string | null> {
    const rows: { name: string | null }[] = await q.query(
      'SELECT name FROM notification_member WHERE user_id = $1::uuid',
      [userId],
    );
    return rows[0]?.name ?? null;
  }

  /** Every row of the member: subscriptions, preferences, name, and the pairs they are in. */
  async eraseMember(m: EntityManager, userId: string): Promise<void> {
    await m.query('DELETE FROM push_subscription WHERE user_id = $1::uuid', [userId]);
    await m.query('DELETE FROM notification_preferences WHERE user_id = $1::uuid', [userId]);
    await m.query('DELETE FROM notification_member WHERE user_id = $1::uuid', [userId]);
    // The table the previous release wrote, until a later deploy drops it (ADR 0030): its rows of
    // the member go too. The kit's projections forget the member's own rows.
    await m.query('DELETE FROM notification_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
  }
}

function toSubscription(row: Record<string, unknown>): StoredSubscription {
  return {
    id: row['id'] as string,
    userId: row['user_id'] as string,
    endpoint: row['endpoint'] as string,
    p256dh: row['p256dh'] as string,
    auth: row['auth'] as string,
    createdAt: row['created_at'] as Date,
    lastUsedAt: (row['last_used_at'] as Date | null) ?? null,
  };
}
