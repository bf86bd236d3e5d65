import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_ANALYTICS_DAYS,
  type AnalyticsOverviewDto,
  type EngagementDto,
  type MatchAnalyticsDto,
  type ReportTrendRowDto,
  type RetentionDto,
  type SafetyAnalyticsDto,
  type UserGrowthRowDto,
} from '@mate/contracts';
import { CLOCK, type Clock } from '@mate/server-kit';
import { AnalyticsRepository, type MetricRow } from './analytics.repository';
import { utcDayOf } from './analytics-events.repository';

/** PostgreSQL answers counts as text (bigint) and rates as numbers; the calls answer numbers, never NaN. */
function numbers<T>(row: MetricRow | undefined, fields: readonly (keyof T & string)[]): T {
  const out: Record<string, number> = {};
  for (const field of fields) {
    const value = Number(row?.[field] ?? 0);
    out[field] = Number.isFinite(value) ? value : 0;
  }
  return out as T;
}

/** The seven analytics calls of spec 001 §7, each one query over the event store (AnalyticsRepository). */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly metrics: AnalyticsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private today(): string {
    return utcDayOf(this.clock.now());
  }

  async overview(): Promise<AnalyticsOverviewDto> {
    return numbers<AnalyticsOverviewDto>(await this.metrics.overview(this.today()), [
      'totalUsers',
      'newUsers7d',
      'activeUsers30d',
      'totalMatches',
      'totalMessages',
      'pendingReports',
      'onboardingCompletionRate',
      'profileCompletionRate',
    ]);
  }

  async userGrowth(days = DEFAULT_ANALYTICS_DAYS): Promise<UserGrowthRowDto[]> {
    const rows = await this.metrics.userGrowth(this.today(), days);
    return rows.map((row) => ({ date: String(row['date']), ...numbers<Omit<UserGrowthRowDto, 'date'>>(row, ['totalUsers', 'newUsers']) }));
  }

  async engagement(days = DEFAULT_ANALYTICS_DAYS): Promise<EngagementDto> {
    return numbers<EngagementDto>(await this.metrics.engagement(this.today(), days), [
      'dau',
      'wau',
      'mau',
      'avgMessagesPerMatch',
      'messageResponseRate',
      'swipeRate',
    ]);
  }

  async matches(days = DEFAULT_ANALYTICS_DAYS): Promise<MatchAnalyticsDto> {
    return numbers<MatchAnalyticsDto>(await this.metrics.matches(this.today(), days), [
      'matchSuccessRate',
      'totalLikes',
      'totalMatches',
      'likesInPeriod',
      'matchesInPeriod',
      'avgMatchesPerUser',
      'newMatches7d',
      'newMatches30d',
    ]);
  }

  /** The statistics' Total Matches: the matches ever made, as the overview and Match Performance count them. */
  async totalMatches(): Promise<number> {
    return numbers<{ totalMatches: number }>(await this.metrics.totalMatches(), ['totalMatches']).totalMatches;
  }

  async retention(): Promise<RetentionDto> {
    return numbers<RetentionDto>(await this.metrics.retention(this.today()), ['d1Retention', 'd7Retention', 'd30Retention', 'churnRate']);
  }

  async safety(): Promise<SafetyAnalyticsDto> {
    return numbers<SafetyAnalyticsDto>(await this.metrics.safety(), [
      'pendingReports',
      'resolvedReports',
      'totalReports',
      'avgResolutionTime',
      'totalBlocks',
      'totalSuspensions',
    ]);
  }

  async reportTrends(days = DEFAULT_ANALYTICS_DAYS): Promise<ReportTrendRowDto[]> {
    const rows = await this.metrics.reportTrends(this.today(), days);
    return rows.map((row) => ({ date: String(row['date']), reason: String(row['reason']), count: Number(row['count']) }));
  }
}
