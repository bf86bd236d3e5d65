import { ApiError, type AdminReportsQuery } from '@mate/api-client';
import type { AdminReportDto, AdminStatsDto } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aReport, signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { renderAdmin } from '../../testing/render';

/**
 * admin-service's report list as the client reads it: newest first, filtered by status, `limit`
 * from `offset`, with the total matching the filter (X-Total-Count).
 */
function serveReports(api: FakeAdminApi, reports: AdminReportDto[]) {
  api.admin.getReportsPage.mockImplementation(async ({ status, limit = 20, offset = 0 }: AdminReportsQuery = {}) => {
    const matching = reports.filter((r) => !status || status === 'all' || r.status === status);
    const page = matching.slice(offset, offset + limit);
    return { reports: page, total: matching.length, limit, offset, hasMore: offset + page.length < matching.length };
  });
}

const items = () => screen.getAllByRole('listitem').filter((item) => item.classList.contains('report-item'));
const shown = () => items().map((item) => within(item).getByText(/^Reported \d+ \(/).textContent?.replace(/ \(.*/, ''));
const location = () => screen.getByTestId('location').textContent;

describe('ReportsScreen (/admin/reports: every report, 20 a page)', () => {
  let api: FakeAdminApi;
  let reports: AdminReportDto[];
  beforeEach(() => {
    api = signedInAdminApi();
    // 25 pending (Reported 1 newest), 3 reviewed, 2 dismissed.
    reports = [
      ...Array.from({ length: 25 }, (_, i) => aReport(i + 1)),
      ...[26, 27, 28].map((n) => aReport(n, { status: 'reviewed', resolution: `Warned ${n}` })),
      ...[29, 30].map((n) => aReport(n, { status: 'dismissed', reason: 'spam' })),
    ];
    serveReports(api, reports);
  });

  it('opens on Pending, 20 a page, and pages 1 → 2 → 1 with Previous and Next', async () => {
    const user = userEvent.setup();
    renderAdmin(api, { route: '/admin/reports' });
    expect(await screen.findByRole('heading', { name: 'User Reports', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Loading reports...')).toBeInTheDocument();
    expect(await screen.findByText('Reported 1 (reported1@mate.test)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pending' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.admin.getReportsPage).toHaveBeenLastCalledWith({ status: 'pending', offset: 0 });
    expect(screen.getByText('25 pending reports')).toBeInTheDocument();
    expect(shown()).toEqual(Array.from({ length: 20 }, (_, i) => `Reported ${i + 1}`));
    const pager = screen.getByRole('navigation', { name: 'Report pages' });
    expect(within(pager).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Reported 21 (reported21@mate.test)')).toBeInTheDocument();
    expect(api.admin.getReportsPage).toHaveBeenLastCalledWith({ status: 'pending', offset: 20 });
    expect(shown()).toEqual(['Reported 21', 'Reported 22', 'Reported 23', 'Reported 24', 'Reported 25']);
    expect(within(pager).getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(location()).toBe('/admin/reports?status=pending&page=2');

    await user.click(within(pager).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(shown()).toHaveLength(20));
    expect(shown()[0]).toBe('Reported 1');
    expect(within(pager).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(location()).toBe('/admin/reports?status=pending');
  });

  it('filters All, Reviewed and Dismissed (each from page 1), with the badges and texts of the dashboard', async () => {
    const user = userEvent.setup();
    const { unmount } = renderAdmin(api, { route: '/admin/reports?status=pending&page=2' });
    await screen.findByText('Reported 21 (reported21@mate.test)');

    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(location()).toBe('/admin/reports?status=all'));
    expect(await screen.findByText('30 reports')).toBeInTheDocument();
    expect(api.admin.getReportsPage).toHaveBeenLastCalledWith({ status: 'all', offset: 0 });
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reviewed' }));
    expect(await screen.findByText('Warned 26')).toBeInTheDocument();
    expect(screen.getByText('3 reviewed reports')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
    expect(screen.getAllByText('Reviewed', { selector: '.mate-badge' })[0]).toHaveClass('mate-badge--success');
    // Only pending reports can be resolved.
    expect(screen.queryByRole('button', { name: 'Mark Reviewed' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismissed' }));
    expect(await screen.findByText('2 dismissed reports')).toBeInTheDocument();
    expect(screen.getAllByText('Dismissed', { selector: '.mate-badge' })[0]).toHaveClass('mate-badge--neutral');
    expect(screen.getAllByText('Spam or Advertising')).toHaveLength(2);

    unmount();
    serveReports(api, reports.filter((r) => r.status !== 'dismissed'));
    renderAdmin(api, { route: '/admin/reports?status=dismissed' });
    expect(await screen.findByText('No dismissed reports found')).toBeInTheDocument();
  });

  it('marks a report reviewed with its note and dismisses one, as on the dashboard, and reloads the page', async () => {
    const user = userEvent.setup();
    api.admin.updateReport.mockImplementation(async (reportId: string, status: 'reviewed' | 'dismissed', resolution?: string) => {
      reports = reports.map((r) => (r.id === reportId ? { ...r, status, resolution: resolution || null } : r));
      serveReports(api, reports);
      return { applied: true, auditId: `audit-${reportId}` };
    });
    renderAdmin(api, { route: '/admin/reports?page=2' });
    const report22 = await screen.findByRole('listitem', { name: (_n, el) => el.textContent?.includes('Reported 22 (') ?? false });
    expect(within(report22).getByText('Pending', { selector: '.mate-badge' })).toHaveClass('mate-badge--warning');
    expect(within(report22).getByRole('link', { name: 'View User' })).toHaveAttribute('href', '/admin/users/reported-22');

    await user.type(within(report22).getByLabelText(/Note/), 'Warned the member');
    await user.click(within(report22).getByRole('button', { name: 'Mark Reviewed' }));
    await waitFor(() => expect(api.admin.updateReport).toHaveBeenCalledWith('r22', 'reviewed', 'Warned the member'));
    await waitFor(() => expect(screen.queryByText('Reported 22 (reported22@mate.test)')).not.toBeInTheDocument());
    expect(screen.getByText('24 pending reports')).toBeInTheDocument();

    const report21 = screen.getByRole('listitem', { name: (_n, el) => el.textContent?.includes('Reported 21 (') ?? false });
    await user.click(within(report21).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(api.admin.updateReport).toHaveBeenCalledWith('r21', 'dismissed', ''));
    expect(await screen.findByText('23 pending reports')).toBeInTheDocument();
  });

  it('gives way to the last page when the decisions emptied the one shown', async () => {
    serveReports(api, reports.slice(0, 20).concat(reports.slice(25)));
    renderAdmin(api, { route: '/admin/reports?status=pending&page=2' });
    await waitFor(() => expect(location()).toBe('/admin/reports?status=pending'));
    expect(await screen.findByText('Page 1 of 1')).toBeInTheDocument();
    expect(shown()).toHaveLength(20);
  });

  it('alerts a failed status change', async () => {
    const user = userEvent.setup();
    api.admin.updateReport.mockRejectedValue(new ApiError('Only a pending report can be resolved', 409, 'Only a pending report can be resolved'));
    const { browser } = renderAdmin(api, { route: '/admin/reports' });
    const first = await screen.findByRole('listitem', { name: (_n, el) => el.textContent?.includes('Reported 1 (') ?? false });
    await user.click(within(first).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('Only a pending report can be resolved'));
  });

  it("shows a load failure in a red card, the server's message or 'Failed to get reports'", async () => {
    api.admin.getReportsPage.mockRejectedValue(new ApiError('Reports are unavailable right now', 503, 'Reports are unavailable right now'));
    const { unmount } = renderAdmin(api, { route: '/admin/reports' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Reports are unavailable right now');
    unmount();
    api.admin.getReportsPage.mockRejectedValue(new Error(''));
    renderAdmin(api, { route: '/admin/reports' });
    expect(await screen.findByText('Failed to get reports')).toBeInTheDocument();
  });

  it('is reached from the dashboard ("View all reports" with the count) and from the navigation', async () => {
    const user = userEvent.setup();
    const stats: AdminStatsDto = {
      users: { total: 10, active: 5, suspended: 0 },
      reports: { total: 30, pending: 25, byReason: [] },
      matches: { total: 4 },
    };
    api.admin.getStats.mockResolvedValue(stats);
    renderAdmin(api, { route: '/admin' });
    await user.click(await screen.findByRole('link', { name: 'View all reports (25)' }));
    expect(await screen.findByRole('heading', { name: 'User Reports', level: 1 })).toBeInTheDocument();
    expect(location()).toBe('/admin/reports?status=pending');
    await waitFor(() => expect(shown()).toHaveLength(20));
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');
    expect(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Reports' })).toHaveAttribute(
      'href',
      '/admin/reports',
    );
  });
});
