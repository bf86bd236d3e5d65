import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type MigrationInterface, type QueryRunner } from 'typeorm';
import type { UserSuspendedPayload, UserUnsuspendedPayload } from '@mate/contracts';

/*
 * A member's suspension as every consuming service projects it (docs/adr/0030-pair-and-suspension-
 * projection.md): one `kit_member_suspension` row per member while auth-service has them suspended,
 * from user.suspended and user.unsuspended. Each event carries the member's whole suspension state
 * and the kit's consumer applies only the newest per member, so each writes it whole. A service
 * turns it on with `projections: ['suspension']` (ServiceModule); the kit then creates the table,
 * registers the two handlers and forgets the member's row on user.deleted.
 */

/** The kit's suspension table. A projection migration: only services that turn it on run it. */
export class MemberSuspensionProjection1796401000000 implements MigrationInterface {
  name = 'MemberSuspensionProjection1796401000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS kit_member_suspension (
      user_id uuid PRIMARY KEY,
      suspended_at timestamptz NOT NULL
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS kit_member_suspension');
  }
}

const SUSPEND_MEMBER = `INSERT INTO kit_member_suspension (user_id, suspended_at) VALUES ($1::uuid, $2)
ON CONFLICT (user_id) DO UPDATE SET suspended_at = EXCLUDED.suspended_at`;
const UNSUSPEND_MEMBER = 'DELETE FROM kit_member_suspension WHERE user_id = $1::uuid';
const MEMBER_SUSPENDED = 'SELECT 1 FROM kit_member_suspension WHERE user_id = $1::uuid';
const ANY_MEMBER_SUSPENDED = 'SELECT 1 FROM kit_member_suspension WHERE user_id = ANY ($1::uuid[]) LIMIT 1';

/**
 * Whether the member `userId` (a SQL uuid expression: a column, a parameter) is suspended, as a
 * boolean SQL expression, for a service's statement that reads suspension among other things. A
 * scalar probe of the primary key, once per row that asks: unlike an EXISTS, the planner neither
 * turns it into a join nor hashes it over a scan of the whole table (chat's send statement asks it
 * for each member of a batch, whatever the table holds).
 */
export function memberSuspendedSql(userId: string): string {
  return `coalesce((SELECT true FROM kit_member_suspension WHERE user_id = ${userId}), false)`;
}

/** The suspension projection's statements: its handlers' writes and the service's reads. */
@Injectable()
export class MemberSuspensions {
  constructor(private readonly dataSource: DataSource) {}

  /** user.suspended / user.unsuspended (read by the consumer: the id lower case, the time readable). */
  async apply(manager: EntityManager, payload: UserSuspendedPayload | UserUnsuspendedPayload): Promise<void> {
    if (payload.suspended) {
      await manager.query(SUSPEND_MEMBER, [payload.userId, new Date(payload.suspendedAt)]);
    } else {
      await manager.query(UNSUSPEND_MEMBER, [payload.userId]);
    }
  }

  /** user.deleted: the erased member's row goes (in the erasure's transaction). */
  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(UNSUSPEND_MEMBER, [userId]);
  }

  /** Whether the member is suspended (id in any case). */
  async isSuspended(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(MEMBER_SUSPENDED, [userId]);
    return rows.length > 0;
  }

  /** Whether any of the members is suspended (ids in any case). */
  async anySuspended(userIds: readonly string[], manager: Pick<EntityManager, 'query'> = this.dataSource): Promise<boolean> {
    if (userIds.length === 0) return false;
    const rows: unknown[] = await manager.query(ANY_MEMBER_SUSPENDED, [userIds]);
    return rows.length > 0;
  }
}
