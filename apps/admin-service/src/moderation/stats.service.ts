import { Injectable } from '@nestjs/common';
import type { AdminStatsDto } from '@mate/contracts';
import { serviceUnavailable } from '@mate/server-kit';
import { OwnersClient } from './owners.client';

/**
 * The dashboard's statistics (spec 001 §3): users from auth, reports from safety, matches from
 * matching, asked in parallel. A part that does not answer makes the whole answer 503 with the
 * parts named: zeros would be read as real figures on the dashboard's cards.
 */
@Injectable()
export class AdminStatsService {
  constructor(private readonly owners: OwnersClient) {}

  async stats(): Promise<AdminStatsDto> {
    const [users, reports, matching] = await Promise.all([this.owners.accountStats(), this.owners.safetyStats(), this.owners.matchingStats()]);
    if (!users.ok || !reports.ok || !matching.ok) {
      const missing = [!users.ok && 'users (auth-service)', !reports.ok && 'reports (safety-service)', !matching.ok && 'matches (matching-service)'].filter(Boolean);
      throw serviceUnavailable(undefined, `Statistics are unavailable right now: ${missing.join(', ')} did not answer`);
    }
    return {
      users: { total: users.value.total, active: users.value.active, suspended: users.value.suspended },
      reports: { total: reports.value.total, pending: reports.value.pending, byReason: reports.value.byReason },
      matches: { total: matching.value.matches.total },
    };
  }
}
