import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { UserSuspendedPayload, UserUnsuspendedPayload } from '@mate/contracts';

/**
 * auth-service's suspension in profile-service (issue 13): one `suspended_member` row per member
 * while suspended, from user.suspended and user.unsuspended. Each carries the member's whole
 * suspension state and the consumer applies only the newest, so each event writes it whole.
 */
@Injectable()
export class SuspendedMembers {
  constructor(private readonly dataSource: DataSource) {}

  async apply(manager: EntityManager, payload: UserSuspendedPayload | UserUnsuspendedPayload): Promise<void> {
    // Read by the consumer against its catalogue class: the id lower case, the time readable.
    if (payload.suspended) {
      await manager.query(
        `INSERT INTO suspended_member (user_id, suspended_at) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET suspended_at = EXCLUDED.suspended_at`,
        [payload.userId, new Date(payload.suspendedAt)],
      );
    } else {
      await manager.query('DELETE FROM suspended_member WHERE user_id = $1', [payload.userId]);
    }
  }

  /** Whether the member is suspended (id in any case). */
  async isSuspended(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM suspended_member WHERE user_id = $1::uuid',
      [userId],
    );
    return rows.length > 0;
  }
}
