import type {
  AnalyticsOverviewDto,
  EngagementDto,
  MatchAnalyticsDto,
  ReportTrendRowDto,
  RetentionDto,
  SafetyAnalyticsDto,
  UserGrowthRowDto,
} from '@mate/contracts';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/ApiContext';

export interface AnalyticsData {
  overview: AnalyticsOverviewDto | null;
  growth: UserGrowthRowDto[];
  engagement: EngagementDto | null;
  matches: MatchAnalyticsDto | null;
  /** The period `matches` is for: a failed reload for another period leaves the last answer, labelled as its own. */
  matchesDays: number | null;
  retention: RetentionDto | null;
  safety: SafetyAnalyticsDto | null;
  trends: ReportTrendRowDto[];
}

const EMPTY: AnalyticsData = {
  overview: null,
  growth: [],
  engagement: null,
  matches: null,
  matchesDays: null,
  retention: null,
  safety: null,
  trends: [],
};

function settled<T>(result: PromiseSettledResult<T>, name: string): T | undefined {
  if (result.status === 'fulfilled') return result.value;
  // Spec 001 §8: analytics fetch failures are only logged; nothing is shown.
  console.error(`Failed to load analytics (${name})`, result.reason);
  return undefined;
}

/**
 * Spec 001 §2/§7: the analytics calls fired together for the period; each result is used only if
 * it came back ok, the others keep what they had.
 */
export function useAnalytics(days: number): { data: AnalyticsData; loading: boolean } {
  const { admin } = useApi();
  const [data, setData] = useState<AnalyticsData>(EMPTY);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let current = true;
    setLoading(true);
    void Promise.allSettled([
      admin.getOverview(),
      admin.getUserGrowth(days),
      admin.getEngagement(days),
      admin.getMatchAnalytics(days),
      admin.getRetention(),
      admin.getSafety(),
      admin.getReportTrends(days),
    ]).then(([overview, growth, engagement, matches, retention, safety, trends]) => {
      if (!current) return;
      const matchesNow = settled(matches, 'matches');
      setData((previous) => ({
        overview: settled(overview, 'overview') ?? previous.overview,
        growth: settled(growth, 'user-growth') ?? previous.growth,
        engagement: settled(engagement, 'engagement') ?? previous.engagement,
        matches: matchesNow ?? previous.matches,
        matchesDays: matchesNow ? days : previous.matchesDays,
        retention: settled(retention, 'retention') ?? previous.retention,
        safety: settled(safety, 'safety') ?? previous.safety,
        trends: settled(trends, 'report-trends') ?? previous.trends,
      }));
      setLoading(false);
    });
    return () => {
      current = false;
    };
  }, [admin, days]);

  return { data, loading };
}

/** Spec 001 §2 Export: overview, growth, engagement, matches, retention, safety and exportedAt. */
export function analyticsExport(data: AnalyticsData, now: Date = new Date()) {
  return {
    overview: data.overview,
    growth: data.growth,
    engagement: data.engagement,
    matches: data.matches,
    retention: data.retention,
    safety: data.safety,
    exportedAt: now.toISOString(),
  };
}

/** The six reasons of the stacked report-trends chart, in the spec's order. */
export const TREND_REASONS = ['inappropriate_content', 'harassment', 'fake_profile', 'spam', 'underage', 'other'] as const;

/** Trend rows (date, reason, count) → one row per date with a count per reason. */
export function pivotTrends(rows: ReportTrendRowDto[]): Record<string, string | number>[] {
  const byDate = new Map<string, Record<string, string | number>>();
  for (const { date, reason, count } of rows) {
    let row = byDate.get(date);
    if (!row) {
      row = { date, ...Object.fromEntries(TREND_REASONS.map((r) => [r, 0])) };
      byDate.set(date, row);
    }
    row[reason] = (Number(row[reason]) || 0) + count;
  }
  return [...byDate.values()].sort((a, b) => String(a['date']).localeCompare(String(b['date'])));
}
