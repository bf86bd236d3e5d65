import { Injectable } from '@nestjs/common';
import type { AdminStatsDto } from '@mate/contracts';
import { serviceUnavailable } from '@mate/server-kit';
import { AnalyticsService } from '../analytics/analytics.service';
import { OwnersClient } from './owners.client';

/**
 * The dashboard's statistics (spec 001 §3): users from auth and reports from safety, asked in
 * parallel; matches from admin-service's own event store, counted exactly as the analytics'
 * Total Matches (README "What a match is"), so the dashboard and analytics never show two totals.
 * An owner that does not answer makes the whole answer 503 with the parts named: zeros would be
 * read as real figures on the dashboard's cards.
 */
@Injectable()
export class AdminStatsService {
  constructor(
    private readonly owners: OwnersClient,
    private readonly analytics: AnalyticsService,
  ) {}

  async stats(): Promise<AdminStatsDto> {
    const [users, reports, matches] = await Promise.all([this.owners.accountStats(), this.owners.safetyStats(), this.analytics.totalMatches()]);
    if (!users.ok || !reports.ok) {
      const missing = [!users.ok && 'users (auth-service)', !reports.ok && 'reports (safety-service)'].filter(Boolean);
      throw serviceUnavailable(undefined, `Statistics are unavailable right now: ${missing.join(', ')} did not answer`);
    }
    return {
      users: { total: users.value.total, active: users.value.active, suspended: users.value.suspended },
      reports: { total: reports.value.total, pending: reports.value.pending, byReason: reports.value.byReason },
      matches: { total: matches },
    };
  }
}
