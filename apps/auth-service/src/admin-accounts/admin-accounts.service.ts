import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ADMIN_ACTIVE_WINDOW_MS,
  type AdminAccountPart,
  type AdminAccountStatsPart,
  type AdminAccountSummaryPart,
  type Role,
} from '@mate/contracts';
import { CLOCK, SessionStore, type Clock } from '@mate/server-kit';

interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: Date;
  email_verified_at: Date | null;
  suspended_at: Date | null;
  suspension_reason: string | null;
  last_active_at: Date | null;
}

const ACCOUNT_COLUMNS =
  'id, email, name, role, created_at, email_verified_at, suspended_at, suspension_reason, last_active_at';

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function summaryOf(row: AccountRow): AdminAccountSummaryPart {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    isSuspended: row.suspended_at !== null,
    isVerified: row.email_verified_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Accounts as admin-service reads them (issue 13). A deleted account does not exist any more
 * (issue 12 erases it), so it is simply not found.
 */
@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One account, or null. `lastActive`: the later of the last recorded active day's moment and
   * the newest request of any live session (the session store's lastActivity), so today's use
   * shows even between the once-a-day notes.
   */
  async account(userId: string): Promise<AdminAccountPart | null> {
    const [row] = await this.dataSource.query<AccountRow[]>(
      `SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = $1`,
      [userId],
    );
    if (!row) return null;
    const live = await this.dataSource.query<{ id: string }[]>(
      'SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
    const activity = await this.sessions.lastActivity(live.map((s) => s.id));
    const latest = Math.max(row.last_active_at?.getTime() ?? 0, ...activity.values());
    return {
      ...summaryOf(row),
      lastActive: latest > 0 ? new Date(latest).toISOString() : null,
      isActive: row.suspended_at === null,
      suspendedAt: row.suspended_at ? row.suspended_at.toISOString() : null,
      suspensionReason: row.suspension_reason,
    };
  }

  /** The accounts of these ids that exist, in the order asked. */
  async summaries(ids: string[]): Promise<AdminAccountSummaryPart[]> {
    const rows = await this.dataSource.query<AccountRow[]>(
      `SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [summaryOf(row)] : [];
    });
  }

  /**
   * Accounts whose name or email contains `q` (case-insensitive; wildcards match themselves): an
   * exact email first, then newest first. A sequential scan of users: admin searches are rare.
   */
  async search(q: string, limit: number): Promise<AdminAccountSummaryPart[]> {
    const rows = await this.dataSource.query<AccountRow[]>(
      `SELECT ${ACCOUNT_COLUMNS} FROM users
        WHERE email ILIKE $1 ESCAPE '\\' OR name ILIKE $1 ESCAPE '\\'
        ORDER BY (lower(email) = lower($2)) DESC, created_at DESC, id
        LIMIT $3`,
      [likeContains(q), q, limit],
    );
    return rows.map(summaryOf);
  }

  /** Every account, those seen within ADMIN_ACTIVE_WINDOW_MS, and the suspended ones. */
  async stats(): Promise<AdminAccountStatsPart> {
    const since = new Date(this.clock.now().getTime() - ADMIN_ACTIVE_WINDOW_MS);
    const [row] = await this.dataSource.query<AdminAccountStatsPart[]>(
      `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE last_active_at >= $1))::int AS active,
              (count(*) FILTER (WHERE suspended_at IS NOT NULL))::int AS suspended
         FROM users`,
      [since],
    );
    return row;
  }
}
