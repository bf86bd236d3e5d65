import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { destroyIntersectionMocking, mockIsIntersecting, setupIntersectionMocking } from 'react-intersection-observer/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { renderAdmin } from '../../testing/render';
import { pivotTrends } from './useAnalytics';

const overview = {
  totalUsers: 200,
  newUsers7d: 12,
  activeUsers30d: 50,
  totalMatches: 40,
  totalMessages: 900,
  pendingReports: 3,
  onboardingCompletionRate: 0.8,
  profileCompletionRate: 0.65,
};
const growth = [{ date: '2026-11-01', totalUsers: 190, newUsers: 2 }];
const engagement = { dau: 20, wau: 60, mau: 150, avgMessagesPerMatch: 7.5, messageResponseRate: 0.42, swipeRate: 12.3 };
const matches = {
  matchSuccessRate: 0.25,
  totalLikes: 160,
  totalMatches: 40,
  likesInPeriod: 72,
  matchesInPeriod: 18,
  avgMatchesPerUser: 0.4,
  newMatches7d: 5,
  newMatches30d: 18,
};
const retention = { d1Retention: 0.6, d7Retention: 0.4, d30Retention: 0.2, churnRate: 0.35 };
const safety = { pendingReports: 3, resolvedReports: 9, totalReports: 12, avgResolutionTime: 5.25, totalBlocks: 7, totalSuspensions: 2 };
const trends = [
  { date: '2026-11-02', reason: 'spam', count: 2 },
  { date: '2026-11-01', reason: 'harassment', count: 1 },
  { date: '2026-11-02', reason: 'harassment', count: 3 },
];

/** Every call answers, at once or, given `gate`, once it opens (so the loading view can be seen first). */
function stubAll(api: FakeAdminApi, gate?: Promise<void>) {
  const answer = <T,>(value: T) => () => (gate ? gate.then(() => value) : Promise.resolve(value));
  api.admin.getOverview.mockImplementation(answer(overview));
  api.admin.getUserGrowth.mockImplementation(answer(growth));
  api.admin.getEngagement.mockImplementation(answer(engagement));
  api.admin.getMatchAnalytics.mockImplementation(answer(matches));
  api.admin.getRetention.mockImplementation(answer(retention));
  api.admin.getSafety.mockImplementation(answer(safety));
  api.admin.getReportTrends.mockImplementation(answer(trends));
}

const card = (name: string) => screen.getByRole('group', { name });
const metric = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('AnalyticsScreen (spec 001 §2 Analytics dashboard)', () => {
  let api: FakeAdminApi;
  beforeEach(() => {
    api = signedInAdminApi();
  });

  describe('with the window known (IntersectionObserver)', () => {
    beforeEach(() => setupIntersectionMocking(vi.fn));
    afterEach(() => destroyIntersectionMocking());

    it('draws a chart only once its frame comes near the window, in a frame of its full size from the start', async () => {
      stubAll(api);
      renderAdmin(api, { route: '/admin/analytics' });
      const frame = await screen.findByRole('img', { name: 'User growth: total users and new users by date' });
      expect(frame).toHaveClass('chart-frame');
      expect(frame).toBeEmptyDOMElement();
      mockIsIntersecting(frame, true);
      await waitFor(() => expect(frame.querySelector('.recharts-responsive-container')).not.toBeNull());
      // Another chart, further down, is still not drawn.
      expect(screen.getByRole('img', { name: 'Reports by date and reason' })).toBeEmptyDOMElement();
    });
  });

  it('loads every call for 30 days by default and shows the cards and chart sections', async () => {
    // The answers wait until the loading view was seen: answered at once, a busy machine could draw
    // the screen with its data before the test looked.
    let open: () => void = () => undefined;
    stubAll(api, new Promise<void>((resolve) => (open = resolve)));
    renderAdmin(api, { route: '/admin/analytics' });
    expect(await screen.findByText('Loading analytics...')).toBeInTheDocument();
    open();
    expect(await screen.findByRole('heading', { name: 'User Growth' })).toBeInTheDocument();
    expect(api.admin.getUserGrowth).toHaveBeenCalledWith(30);
    expect(api.admin.getEngagement).toHaveBeenCalledWith(30);
    expect(api.admin.getMatchAnalytics).toHaveBeenCalledWith(30);
    expect(api.admin.getReportTrends).toHaveBeenCalledWith(30);
    expect(api.admin.getOverview).toHaveBeenCalled();
    expect(api.admin.getRetention).toHaveBeenCalled();
    expect(api.admin.getSafety).toHaveBeenCalled();
    expect(screen.getByLabelText('Period')).toHaveValue('30');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');

    expect(within(card('Total Users')).getByText('200')).toBeInTheDocument();
    expect(within(card('Total Users')).getByText('+12 this week')).toBeInTheDocument();
    expect(within(card('Active Users (30d)')).getByText('25% of total')).toBeInTheDocument();
    expect(within(card('Total Matches')).getByText('900 messages')).toBeInTheDocument();
    expect(within(card('Pending Reports')).getByText('Needs attention')).toBeInTheDocument();

    for (const title of ['Engagement', 'Match Performance', 'User Retention', 'Safety Metrics', 'Report Trends', 'Funnel Metrics']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(metric('Avg Messages per Match')).toHaveTextContent('7.5');
    expect(metric('Response Rate')).toHaveTextContent('42%');
    expect(metric('Swipes per User per Day')).toHaveTextContent('12.3');
    expect(screen.getByText('Match success rate (mutual likes / total likes)')).toBeInTheDocument();
    expect(metric('Total Likes')).toHaveTextContent('160');
    expect(metric('Churn Rate (30d)')).toHaveTextContent('35%');
    expect(metric('Avg Resolution Time')).toHaveTextContent('5.3 h');
    expect(metric('Total Blocks')).toHaveTextContent('7');
    expect(metric('Suspended Users')).toHaveTextContent('2');
    expect(screen.getByRole('progressbar', { name: 'Onboarding Completion: 80%' })).toHaveAttribute('aria-valuenow', '80');
    expect(screen.getByRole('progressbar', { name: 'Profile Completion (photo upload): 65%' })).toBeInTheDocument();
  });

  it("labels Match Performance's rows with what they count: totals ever, then the chosen period's figures", async () => {
    const user = userEvent.setup();
    stubAll(api);
    const byPeriod: Record<number, typeof matches> = {
      30: matches,
      90: { ...matches, matchSuccessRate: 0.2, likesInPeriod: 150, matchesInPeriod: 30, avgMatchesPerUser: 0.6 },
      7: { ...matches, matchSuccessRate: 0.5, likesInPeriod: 10, matchesInPeriod: 5, avgMatchesPerUser: 0.1 },
    };
    api.admin.getMatchAnalytics.mockImplementation(async (days: number) => byPeriod[days]);
    renderAdmin(api, { route: '/admin/analytics' });
    const rows = async () => {
      const performance = (await screen.findByRole('heading', { name: 'Match Performance' })).closest('section') as HTMLElement;
      return within(performance)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    };

    expect(await rows()).toEqual([
      ['Total Likes', '160'],
      ['Total Matches', '40'],
      ['Likes (30d)', '72'],
      ['Matches (30d)', '18'],
      ['Matches (7d)', '5'],
      ['Avg Matches per User (30d)', '0.4'],
    ]);
    expect(screen.getByText('Last 30 days', { selector: '.metric-lead__period' })).toBeInTheDocument();
    // Total Matches is the analytics card's count (and the dashboard's): the overview says 40 too.
    expect(within(card('Total Matches')).getByText('40')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Period'), '90');
    await waitFor(async () => expect(await rows()).toContainEqual(['Matches (90d)', '30']));
    expect(await rows()).toEqual([
      ['Total Likes', '160'],
      ['Total Matches', '40'],
      ['Likes (90d)', '150'],
      ['Matches (90d)', '30'],
      ['Matches (7d)', '5'],
      ['Avg Matches per User (90d)', '0.6'],
    ]);
    expect(screen.getByText('20%')).toBeInTheDocument();

    // Over 7 days the period is the 7-day window: one row, not two.
    await user.selectOptions(screen.getByLabelText('Period'), '7');
    await waitFor(async () => expect(await rows()).toContainEqual(['Likes (7d)', '10']));
    expect(await rows()).toEqual([
      ['Total Likes', '160'],
      ['Total Matches', '40'],
      ['Likes (7d)', '10'],
      ['Matches (7d)', '5'],
      ['Avg Matches per User (7d)', '0.1'],
    ]);
    expect(screen.getByText('Last 7 days', { selector: '.metric-lead__period' })).toBeInTheDocument();
  });

  it("keeps Match Performance's labels with the figures shown when a period's reload fails", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubAll(api);
    renderAdmin(api, { route: '/admin/analytics' });
    expect(await screen.findByText('Matches (30d)', { selector: 'dt' })).toBeInTheDocument();
    api.admin.getMatchAnalytics.mockRejectedValue(new Error('down'));
    await user.selectOptions(screen.getByLabelText('Period'), '90');
    await waitFor(() => expect(api.admin.getMatchAnalytics).toHaveBeenLastCalledWith(90));
    await waitFor(() => expect(screen.queryByText('Loading analytics...')).not.toBeInTheDocument());
    expect(metric('Matches (30d)')).toHaveTextContent('18');
    expect(screen.queryByText('Matches (90d)', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it('says All clear with no pending reports', async () => {
    stubAll(api);
    api.admin.getOverview.mockResolvedValue({ ...overview, pendingReports: 0 });
    renderAdmin(api, { route: '/admin/analytics' });
    expect(await screen.findByText('All clear')).toBeInTheDocument();
  });

  it('reloads for 7 or 90 days', async () => {
    const user = userEvent.setup();
    stubAll(api);
    renderAdmin(api, { route: '/admin/analytics' });
    await screen.findByRole('heading', { name: 'User Growth' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Last 7 days', 'Last 30 days', 'Last 90 days']);
    await user.selectOptions(screen.getByLabelText('Period'), '90');
    await waitFor(() => expect(api.admin.getUserGrowth).toHaveBeenLastCalledWith(90));
    expect(api.admin.getEngagement).toHaveBeenLastCalledWith(90);
    await user.selectOptions(screen.getByLabelText('Period'), '7');
    await waitFor(() => expect(api.admin.getMatchAnalytics).toHaveBeenLastCalledWith(7));
  });

  it('uses each answer only if it is ok and only logs the failures', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubAll(api);
    api.admin.getOverview.mockRejectedValue(new Error('down'));
    api.admin.getSafety.mockRejectedValue(new Error('down'));
    renderAdmin(api, { route: '/admin/analytics' });
    expect(await screen.findByRole('heading', { name: 'User Growth' })).toBeInTheDocument();
    expect(metric('Avg Messages per Match')).toHaveTextContent('7.5');
    expect(within(card('Total Users')).getByText('N/A')).toBeInTheDocument();
    expect(metric('Total Blocks')).toHaveTextContent('N/A');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('exports overview, growth, engagement, matches, retention, safety and exportedAt as JSON', async () => {
    const user = userEvent.setup();
    stubAll(api);
    const { browser } = renderAdmin(api, { route: '/admin/analytics' });
    await screen.findByRole('heading', { name: 'User Growth' });
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(browser.download).toHaveBeenCalledTimes(1);
    const [fileName, content, type] = browser.download.mock.calls[0];
    expect(fileName).toMatch(/^mate-analytics-\d{4}-\d{2}-\d{2}\.json$/);
    expect(type).toBe('application/json');
    const parsed = JSON.parse(content) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['overview', 'growth', 'engagement', 'matches', 'retention', 'safety', 'exportedAt']);
    expect(parsed).toMatchObject({ overview, growth, engagement, matches, retention, safety });
    expect(new Date(parsed['exportedAt'] as string).toString()).not.toBe('Invalid Date');
  });

  it('pivots report trends into one row per date with the six reasons', () => {
    expect(pivotTrends(trends)).toEqual([
      { date: '2026-11-01', inappropriate_content: 0, harassment: 1, fake_profile: 0, spam: 0, underage: 0, other: 0 },
      { date: '2026-11-02', inappropriate_content: 0, harassment: 3, fake_profile: 0, spam: 2, underage: 0, other: 0 },
    ]);
  });
});
