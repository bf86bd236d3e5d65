import { ANALYTICS_PERIODS, DEFAULT_ANALYTICS_DAYS } from '@mate/contracts';
import { Button, Card, Icon, ProgressBar, Select, Spinner, PageHeader } from '@mate/ui';
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { useInView } from 'react-intersection-observer';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useBrowser } from '../../browser/AdminBrowser';
import { StatCard } from '../../components/StatCard';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { count, decimal, percent } from '../../lib/format';
import { reasonLabel } from '../../lib/labels';
import { analyticsExport, pivotTrends, TREND_REASONS, useAnalytics } from './useAnalytics';

const BACK = { to: '/admin', label: 'Back to Dashboard' };
const PERIOD_OPTIONS = ANALYTICS_PERIODS.map((days) => ({ value: String(days), label: `Last ${days} days` }));
// The charts draw at once, without their entrance animations: each animation frame is script on
// the main thread (Lighthouse counted 0.5–0.7 s of blocking time on this screen, issue 26), and
// people who asked for reduced motion get none either.
const ACCENT = '#c2185b';
const TREND_COLOURS: Record<(typeof TREND_REASONS)[number], string> = {
  inappropriate_content: '#c2185b',
  harassment: '#7b1fa2',
  fake_profile: '#1565c0',
  spam: '#ef6c00',
  underage: '#b42318',
  other: '#6f6685',
};

/**
 * A chart's frame, always its full size; the chart itself is drawn once the frame comes within
 * 200 px of the window (and stays). Drawing every chart at once was one 0.5 s task on the main
 * thread as the answers arrived (issue 26); those below the fold now cost nothing until scrolled
 * to. Where IntersectionObserver is missing, every chart draws at once.
 */
function ChartFrame({ label, children }: { label: string; children: ReactNode }) {
  const { ref, inView } = useInView({ triggerOnce: true, rootMargin: '200px 0px', fallbackInView: true });
  // Drawn as a transition: React renders the chart in slices of a few milliseconds, between which
  // the page answers input, instead of one long task per chart (recharts computes its scales and
  // paths while rendering).
  const [draw, setDraw] = useState(false);
  useEffect(() => {
    if (inView) startTransition(() => setDraw(true));
  }, [inView]);
  return (
    <div ref={ref} className="chart-frame" role="img" aria-label={label}>
      {draw && (
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      )}
    </div>
  );
}

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="metric">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** `/admin/analytics` (spec 001 §2 Analytics dashboard). */
export function AnalyticsScreen() {
  useDocumentTitle('Analytics');
  const [days, setDays] = useState<number>(DEFAULT_ANALYTICS_DAYS);
  const { data, loading } = useAnalytics(days);
  const browser = useBrowser();
  const { overview, growth, engagement, matches, retention, safety, trends } = data;
  const matchDays = data.matchesDays ?? days;
  const firstLoad = loading && !overview && growth.length === 0 && !engagement && !matches && !retention && !safety;

  const exportJson = () => {
    const file = analyticsExport(data);
    browser.download(`mate-analytics-${file.exportedAt.slice(0, 10)}.json`, `${JSON.stringify(file, null, 2)}\n`, 'application/json');
  };

  const activePercent =
    overview && overview.totalUsers > 0 ? `${percent(overview.activeUsers30d / overview.totalUsers)} of total` : undefined;

  return (
    <div className="admin-screen">
      <PageHeader
        back={BACK}
        title="Analytics"
        subtitle="Growth, engagement, matching and safety"
        actions={
          <div className="admin-actions">
            <Select
              label="Period"
              options={PERIOD_OPTIONS}
              value={String(days)}
              onChange={(event) => setDays(Number(event.target.value))}
              containerClassName="period-select"
            />
            <Button variant="secondary" onClick={exportJson} icon={<Icon name="upload" size={18} />}>
              Export
            </Button>
          </div>
        }
      />

      {firstLoad ? (
        <div className="admin-loading">
          <Spinner size="sm" />
          <p>Loading analytics...</p>
        </div>
      ) : (
        <>
          <section className="stat-grid" aria-label="Overview">
            <StatCard
              label="Total Users"
              icon="user"
              value={count(overview?.totalUsers)}
              detail={overview ? `+${count(overview.newUsers7d)} this week` : undefined}
            />
            <StatCard label="Active Users (30d)" icon="sparkles" value={count(overview?.activeUsers30d)} detail={activePercent} />
            <StatCard
              label="Total Matches"
              icon="heart"
              value={count(overview?.totalMatches)}
              detail={overview ? `${count(overview.totalMessages)} messages` : undefined}
            />
            <StatCard
              label="Pending Reports"
              icon="flag"
              tone={overview && overview.pendingReports > 0 ? 'warning' : 'success'}
              value={count(overview?.pendingReports)}
              detail={overview ? (overview.pendingReports > 0 ? 'Needs attention' : 'All clear') : undefined}
            />
          </section>

          <div className="chart-grid">
            <Card title="User Growth" titleLevel={2} className="chart-card chart-card--wide">
              <ChartFrame label="User growth: total users and new users by date">
                <AreaChart data={growth}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="date" />
                  <YAxis />
                  <Tooltip />
                  <Legend />
                  <Area isAnimationActive={false} type="monotone" dataKey="totalUsers" name="Total Users" stroke={ACCENT} fill={ACCENT} fillOpacity={0.2} />
                  <Area isAnimationActive={false} type="monotone" dataKey="newUsers" name="New Users" stroke="#7b1fa2" fill="#7b1fa2" fillOpacity={0.2} />
                </AreaChart>
              </ChartFrame>
            </Card>

            <Card title="Engagement" titleLevel={2} className="chart-card">
              <ChartFrame label="Daily, weekly and monthly active users">
                <BarChart
                  data={engagement ? [
                    { name: 'DAU', users: engagement.dau },
                    { name: 'WAU', users: engagement.wau },
                    { name: 'MAU', users: engagement.mau },
                  ] : []}
                >
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="name" />
                  <YAxis />
                  <Tooltip />
                  <Bar isAnimationActive={false} dataKey="users" name="Active users" fill={ACCENT} />
                </BarChart>
              </ChartFrame>
              <dl className="metrics">
                <Metric label="Avg Messages per Match" value={decimal(engagement?.avgMessagesPerMatch)} />
                <Metric label="Response Rate" value={percent(engagement?.messageResponseRate)} />
                <Metric label="Swipes per User per Day" value={decimal(engagement?.swipeRate)} />
              </dl>
            </Card>

            {/* Totals are ever (Total Matches is the dashboard's and the card's count); the rest is the period's (admin-service README, Matches). */}
            <Card title="Match Performance" titleLevel={2} className="chart-card">
              <p className="metric-lead">
                <span className="metric-lead__value">{percent(matches?.matchSuccessRate)}</span>
                <span>Match success rate (mutual likes / total likes)</span>
                <span className="metric-lead__period">Last {matchDays} days</span>
              </p>
              <dl className="metrics">
                <Metric label="Total Likes" value={count(matches?.totalLikes)} />
                <Metric label="Total Matches" value={count(matches?.totalMatches)} />
                <Metric label={`Likes (${matchDays}d)`} value={count(matches?.likesInPeriod)} />
                <Metric label={`Matches (${matchDays}d)`} value={count(matches?.matchesInPeriod)} />
                {/* Over 7 days the period's row is this one already. */}
                {matchDays !== 7 && <Metric label="Matches (7d)" value={count(matches?.newMatches7d)} />}
                <Metric label={`Avg Matches per User (${matchDays}d)`} value={decimal(matches?.avgMatchesPerUser)} />
              </dl>
            </Card>

            <Card title="User Retention" titleLevel={2} className="chart-card">
              <ChartFrame label="Retention on day 1, day 7 and day 30 in percent">
                <LineChart
                  data={retention ? [
                    { name: 'Day 1', retention: Math.round(retention.d1Retention * 1000) / 10 },
                    { name: 'Day 7', retention: Math.round(retention.d7Retention * 1000) / 10 },
                    { name: 'Day 30', retention: Math.round(retention.d30Retention * 1000) / 10 },
                  ] : []}
                >
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="name" />
                  <YAxis unit="%" />
                  <Tooltip />
                  <Line isAnimationActive={false} type="monotone" dataKey="retention" name="Retention %" stroke={ACCENT} strokeWidth={2} />
                </LineChart>
              </ChartFrame>
              <dl className="metrics">
                <Metric label="Churn Rate (30d)" value={percent(retention?.churnRate)} />
              </dl>
            </Card>

            <Card title="Safety Metrics" titleLevel={2} className="chart-card">
              <ChartFrame label="Pending versus resolved reports">
                <PieChart>
                  <Pie
                    isAnimationActive={false}
                    data={safety ? [
                      { name: 'Pending', value: safety.pendingReports },
                      { name: 'Resolved', value: safety.resolvedReports },
                    ] : []}
                    dataKey="value"
                    nameKey="name"
                    outerRadius="80%"
                    label
                  >
                    <Cell fill="#ef6c00" />
                    <Cell fill="#067647" />
                  </Pie>
                  <Tooltip />
                  <Legend />
                </PieChart>
              </ChartFrame>
              <dl className="metrics">
                <Metric label="Total Reports" value={count(safety?.totalReports)} />
                <Metric label="Avg Resolution Time" value={safety ? `${decimal(safety.avgResolutionTime)} h` : 'N/A'} />
                <Metric label="Total Blocks" value={count(safety?.totalBlocks)} />
                <Metric label="Suspended Users" value={count(safety?.totalSuspensions)} />
              </dl>
            </Card>

            <Card title="Report Trends" titleLevel={2} className="chart-card chart-card--wide">
              <ChartFrame label="Reports by date and reason">
                <BarChart data={pivotTrends(trends)}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="date" />
                  <YAxis allowDecimals={false} />
                  <Tooltip />
                  <Legend />
                  {TREND_REASONS.map((reason) => (
                    <Bar isAnimationActive={false} key={reason} dataKey={reason} name={reasonLabel(reason)} stackId="reports" fill={TREND_COLOURS[reason]} />
                  ))}
                </BarChart>
              </ChartFrame>
            </Card>

            <Card title="Funnel Metrics" titleLevel={2} className="chart-card">
              <div className="funnel">
                <ProgressBar
                  label={`Onboarding Completion: ${percent(overview?.onboardingCompletionRate)}`}
                  value={(overview?.onboardingCompletionRate ?? 0) * 100}
                />
                <ProgressBar
                  label={`Profile Completion (photo upload): ${percent(overview?.profileCompletionRate)}`}
                  value={(overview?.profileCompletionRate ?? 0) * 100}
                />
              </div>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
