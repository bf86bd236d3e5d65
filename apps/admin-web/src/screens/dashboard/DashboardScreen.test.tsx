import { ApiError, type AdminReportsPage } from '@mate/api-client';
import type { AdminReportDto, AdminStatsDto } from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aReport, signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { renderAdmin } from '../../testing/render';

const stats: AdminStatsDto = {
  users: { total: 120, active: 80, suspended: 3 },
  reports: { total: 9, pending: 4, byReason: [{ reason: 'spam', count: 5 }, { reason: 'weird_reason', count: 2 }] },
  matches: { total: 57 },
};

/** The first page of a filter view as the client reads it (X-Total-Count: `total`). */
function page(reports: AdminReportDto[], total = reports.length): AdminReportsPage {
  return { reports, total, limit: 20, offset: 0, hasMore: total > reports.length };
}

describe('DashboardScreen (spec 001 §2 Admin dashboard)', () => {
  let api: FakeAdminApi;
  beforeEach(() => {
    api = signedInAdminApi();
    api.admin.getStats.mockResolvedValue(stats);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the heading, the three buttons, the four statistic cards and Report Trends', async () => {
    api.admin.getReportsPage.mockResolvedValue(page([]));
    renderAdmin(api);
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Platform moderation and management')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Photo Moderation' })).toHaveAttribute('href', '/admin/photos');
    expect(screen.getByRole('link', { name: 'View Analytics' })).toHaveAttribute('href', '/admin/analytics');
    expect(screen.getByRole('link', { name: 'Audit Logs' })).toHaveAttribute('href', '/admin/audit');

    const users = await screen.findByRole('group', { name: 'Total Users' });
    // The cards show '…' until the statistics are in.
    expect(await within(users).findByText('120')).toBeInTheDocument();
    expect(within(users).getByText('80 active')).toBeInTheDocument();
    const reports = screen.getByRole('group', { name: 'Reports' });
    expect(within(reports).getByText('9')).toBeInTheDocument();
    expect(within(reports).getByText('4 pending')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Total Matches' })).getByText('57')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Suspended' })).getByText('3')).toBeInTheDocument();

    const trends = screen.getByRole('heading', { name: 'Report Trends' }).closest('section') as HTMLElement;
    expect(within(trends).getByText('Spam or Advertising')).toBeInTheDocument();
    expect(within(trends).getByText('5')).toBeInTheDocument();
    // Unknown reasons as they are.
    expect(within(trends).getByText('weird_reason')).toBeInTheDocument();
  });

  it('hides Report Trends when no reason exists', async () => {
    api.admin.getStats.mockResolvedValue({ ...stats, reports: { ...stats.reports, byReason: [] } });
    api.admin.getReportsPage.mockResolvedValue(page([]));
    renderAdmin(api);
    expect(await screen.findByText('No pending reports found')).toBeInTheDocument();
    expect(await within(screen.getByRole('group', { name: 'Total Users' })).findByText('120')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Report Trends' })).not.toBeInTheDocument();
  });

  it('defaults to Pending, shows the first three reports of each filter view, and says when a view is empty', async () => {
    const user = userEvent.setup();
    api.admin.getReportsPage.mockImplementation(async ({ status } = {}) => {
      if (status === 'pending') return page([1, 2, 3, 4, 5].map((n) => aReport(n)));
      if (status === 'reviewed') return page([aReport(6, { status: 'reviewed', resolution: 'Warned the member' })]);
      if (status === 'dismissed') return page([]);
      return page([aReport(7, { status: 'dismissed', reason: 'spam' }), aReport(8), aReport(9, { status: 'reviewed' }), aReport(10)]);
    });
    renderAdmin(api);

    expect(await screen.findByText('Loading reports...')).toBeInTheDocument();
    expect(await screen.findByText('Reported 1 (reported1@mate.test)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pending' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.admin.getReportsPage).toHaveBeenCalledWith({ status: 'pending', offset: 0 });
    const list = () => screen.getAllByRole('listitem').filter((item) => item.classList.contains('report-item'));
    expect(list()).toHaveLength(3);
    expect(screen.queryByText('Reported 4 (reported4@mate.test)')).not.toBeInTheDocument();
    expect(screen.getByText('Reporter 1 (reporter1@mate.test)')).toBeInTheDocument();
    expect(screen.getAllByText('Harassment or Bullying')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(list()).toHaveLength(3));
    expect(await screen.findByText('Reported 7 (reported7@mate.test)')).toBeInTheDocument();
    expect(screen.queryByText('Reported 10 (reported10@mate.test)')).not.toBeInTheDocument();
    expect(api.admin.getReportsPage).toHaveBeenCalledWith({ status: 'all', offset: 0 });

    await user.click(screen.getByRole('button', { name: 'Reviewed' }));
    expect(await screen.findByText('Warned the member')).toBeInTheDocument();
    // Only pending reports can be resolved.
    expect(screen.queryByRole('button', { name: 'Mark Reviewed' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismissed' }));
    expect(await screen.findByText('No dismissed reports found')).toBeInTheDocument();
  });

  it('links the list to the reports screen with how many reports the filter view holds', async () => {
    const user = userEvent.setup();
    const pending = Array.from({ length: 18 }, (_, i) => aReport(i + 1));
    api.admin.getReportsPage.mockImplementation(async ({ status } = {}) =>
      status === 'pending' ? page(pending) : status === 'all' ? page(pending, 42) : page([]),
    );
    renderAdmin(api);
    // The dashboard keeps the first three; the other fifteen are a click away.
    expect(await screen.findByRole('link', { name: 'View all reports (18)' })).toHaveAttribute('href', '/admin/reports?status=pending');
    expect(screen.getAllByRole('listitem').filter((item) => item.classList.contains('report-item'))).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(await screen.findByRole('link', { name: 'View all reports (42)' })).toHaveAttribute('href', '/admin/reports?status=all');
    await user.click(screen.getByRole('button', { name: 'Reviewed' }));
    expect(await screen.findByText('No reviewed reports found')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /View all reports/ })).not.toBeInTheDocument();
  });

  it('colours status badges: orange pending, green reviewed, grey anything else', async () => {
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1), aReport(2, { status: 'reviewed' }), aReport(3, { status: 'dismissed' })]));
    renderAdmin(api);
    const pending = await screen.findByText('Pending', { selector: '.mate-badge' });
    expect(pending).toHaveClass('mate-badge--warning');
    expect(screen.getByText('Reviewed', { selector: '.mate-badge' })).toHaveClass('mate-badge--success');
    expect(screen.getByText('Dismissed', { selector: '.mate-badge' })).toHaveClass('mate-badge--neutral');
  });

  it('links View User to the reported member', async () => {
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1)]));
    renderAdmin(api);
    expect(await screen.findByRole('link', { name: 'View User' })).toHaveAttribute('href', '/admin/users/reported-1');
  });

  it('marks a report reviewed with its optional note and dismisses one without, reloading after each', async () => {
    const user = userEvent.setup();
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1), aReport(2)]));
    api.admin.updateReport.mockResolvedValue({ applied: true, auditId: 'a1' });
    renderAdmin(api);

    const first = await screen.findByRole('listitem', { name: (_n, el) => el.textContent?.includes('Reported 1') ?? false });
    await user.type(within(first).getByLabelText(/Note/), 'Warned the member');
    await user.click(within(first).getByRole('button', { name: 'Mark Reviewed' }));
    await waitFor(() => expect(api.admin.updateReport).toHaveBeenCalledWith('r1', 'reviewed', 'Warned the member'));
    await waitFor(() => expect(api.admin.getReportsPage).toHaveBeenCalledTimes(2));
    expect(api.admin.getStats).toHaveBeenCalledTimes(2);

    const second = screen.getByRole('listitem', { name: (_n, el) => el.textContent?.includes('Reported 2') ?? false });
    await user.click(within(second).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(api.admin.updateReport).toHaveBeenCalledWith('r2', 'dismissed', ''));
    await waitFor(() => expect(api.admin.getReportsPage).toHaveBeenCalledTimes(3));
  });

  it('reloads once more when the change was accepted (202) but not applied yet', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1)]));
    api.admin.updateReport.mockResolvedValue({ applied: false, auditId: 'a1' });
    renderAdmin(api);
    await user.click(await screen.findByRole('button', { name: 'Mark Reviewed' }));
    await waitFor(() => expect(api.admin.getReportsPage).toHaveBeenCalledTimes(2));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(api.admin.getReportsPage).toHaveBeenCalledTimes(3));
  });

  it('alerts a failed status change', async () => {
    const user = userEvent.setup();
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1)]));
    api.admin.updateReport.mockRejectedValue(new ApiError('Report is not pending', 409, 'Report is not pending'));
    const { browser } = renderAdmin(api);
    await user.click(await screen.findByRole('button', { name: 'Mark Reviewed' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('Report is not pending'));
  });

  it('shows a red error card with the message when loading fails', async () => {
    api.admin.getStats.mockRejectedValue(new ApiError('Admin access required', 403, 'Admin access required'));
    api.admin.getReportsPage.mockResolvedValue(page([]));
    renderAdmin(api);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Admin access required');
  });

  it("falls back to 'Failed to load dashboard data'", async () => {
    api.admin.getReportsPage.mockRejectedValue(new Error(''));
    renderAdmin(api);
    expect(await screen.findByText('Failed to load dashboard data')).toBeInTheDocument();
  });

  it('loads the evidence kept with a report when it is opened', async () => {
    const user = userEvent.setup();
    api.admin.getReportsPage.mockResolvedValue(page([aReport(1)]));
    api.admin.getReport.mockResolvedValue({
      ...aReport(1),
      snapshot: {
        reportedProfile: { name: 'Reported 1', age: 31, bio: 'Hello there' },
        messagesStatus: 'captured',
        messages: [
          { id: 'm1', senderId: 'reported-1', content: 'You will regret it', createdAt: '2026-11-19T10:00:00.000Z' },
          { id: 'm2', senderId: 'reporter-1', content: 'Please stop', createdAt: '2026-11-19T10:01:00.000Z' },
        ],
        messagesCapturedAt: '2026-11-20T10:00:01.000Z',
      },
    });
    renderAdmin(api);
    await screen.findByText('Reported 1 (reported1@mate.test)');
    expect(api.admin.getReport).not.toHaveBeenCalled();
    await user.click(screen.getByText('Evidence'));
    expect(await screen.findByText('You will regret it')).toBeInTheDocument();
    expect(api.admin.getReport).toHaveBeenCalledWith('r1');
    expect(screen.getByText('Please stop')).toBeInTheDocument();
    expect(screen.getByText('Hello there')).toBeInTheDocument();
    expect(screen.getByText('Reporter 1', { selector: '.report-evidence__sender' })).toBeInTheDocument();
  });

  it('opens the queue dashboard on the API origin in a new tab', async () => {
    const user = userEvent.setup();
    api.admin.getReportsPage.mockResolvedValue(page([]));
    api.admin.createQueueDashboardSession.mockResolvedValue({ url: '/admin/queues/?ticket=t1' });
    const { browser } = renderAdmin(api);
    await user.click(await screen.findByRole('button', { name: 'Queue Dashboard' }));
    await waitFor(() => expect(browser.open).toHaveBeenCalledWith('http://api.test/admin/queues/?ticket=t1'));
  });
});
