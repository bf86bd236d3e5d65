import { Inject, Injectable } from '@nestjs/common';
import {
  ADMIN_ACTIVE_WINDOW_MS,
  type AdminAccountPart,
  type AdminAccountStatsPart,
  type AdminAccountSummaryPart,
} from '@mate/contracts';
import { CLOCK, SessionStore, type Clock } from '@mate/server-kit';
import { AccountsRepository, type AdminAccountRow } from '../accounts/accounts.repository';

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function summaryOf(row: AdminAccountRow): AdminAccountSummaryPart {
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
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One account, or null. `lastActive`: the later of the last recorded active day's moment and
   * the newest request of any live session (the session store's lastActivity), so today's use
   * shows even between the once-a-day notes.
   */
  async account(userId: string): Promise<AdminAccountPart | null> {
    const row = await this.accounts.findForAdmin(userId);
    if (!row) return null;
    const sessionIds = await this.accounts.liveSessionIds(userId);
    const activity = await this.sessions.lastActivity(sessionIds.map((sessionId) => ({ sessionId, userId })));
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
    const rows = await this.accounts.findManyForAdmin(ids);
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
    const rows = await this.accounts.searchForAdmin(likeContains(q), q, limit);
    return rows.map(summaryOf);
  }

  /** Every account, those seen within ADMIN_ACTIVE_WINDOW_MS, and the suspended ones. */
  async stats(): Promise<AdminAccountStatsPart> {
    const since = new Date(this.clock.now().getTime() - ADMIN_ACTIVE_WINDOW_MS);
    return this.accounts.stats(since);
  }
}
