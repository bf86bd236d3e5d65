import type { AuditLogEntryDto, AuditLogPageDto } from '@mate/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { renderAdmin } from '../../testing/render';

function anEntry(n: number, overrides: Partial<AuditLogEntryDto> = {}): AuditLogEntryDto {
  return {
    id: `l${n}`,
    action: 'suspend_user',
    admin: { id: 'a1', name: 'Ada Admin', email: 'admin@mate.test', deleted: false },
    targetUser: { id: 'u1', name: 'Sam Member', email: 'sam@mate.test', deleted: false },
    createdAt: '2026-11-22T09:00:00.000Z',
    ipAddress: '10.0.0.7',
    userAgent: 'Firefox',
    targetResourceType: 'user',
    targetResourceId: 'u1',
    details: { reason: 'Spam messages' },
    ...overrides,
  };
}

function page(logs: AuditLogEntryDto[], total = logs.length, offset = 0): AuditLogPageDto {
  return { logs, total, limit: 50, offset };
}

describe('AuditLogsScreen (spec 001 §2 Audit logs)', () => {
  let api: FakeAdminApi;
  beforeEach(() => {
    api = signedInAdminApi();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists entries with labels and expandable details, and the auto-refresh footer', async () => {
    const user = userEvent.setup();
    api.admin.getAuditLogs.mockResolvedValue(page([anEntry(1), anEntry(2, { action: 'reject_photo', targetUser: null })]));
    renderAdmin(api, { route: '/admin/audit' });
    expect(await screen.findByText('Suspended User', { selector: '.mate-badge' })).toBeInTheDocument();
    expect(screen.getByText('Rejected Photo', { selector: '.mate-badge' })).toBeInTheDocument();
    expect(screen.getAllByText('Ada Admin (admin@mate.test)')).toHaveLength(2);
    expect(screen.getByText('Sam Member (sam@mate.test)')).toBeInTheDocument();
    expect(api.admin.getAuditLogs).toHaveBeenCalledWith({ action: '', search: '', startDate: '', endDate: '', limit: 50, offset: 0 });

    const [details] = screen.getAllByText('Details');
    expect(screen.getAllByText('10.0.0.7')[0]).not.toBeVisible();
    await user.click(details);
    expect(screen.getAllByText('10.0.0.7')[0]).toBeVisible();
    expect(screen.getAllByText(/"reason": "Spam messages"/)[0]).toBeVisible();
    expect(screen.getByText('Audit logs auto-refresh every 30 seconds.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');
  });

  it('shows a deleted target as Deleted member, a deleted admin under the name they acted with, and a refused attempt as Refused (issue 24)', async () => {
    api.admin.getAuditLogs.mockResolvedValue(
      page([
        anEntry(1, {
          action: 'delete_user',
          admin: { id: 'a2', name: 'Ada Author', email: 'ada@mate.test', deleted: true },
          targetUser: { id: 'u2', name: null, email: null, deleted: true },
          details: {},
        }),
        anEntry(2, { details: { reason: 'Lock out', outcome: 'refused', error: 'Admin accounts cannot be suspended' } }),
      ]),
    );
    renderAdmin(api, { route: '/admin/audit' });
    expect(await screen.findByText('Deleted member')).toBeInTheDocument();
    expect(screen.getByText('Ada Author (ada@mate.test), account deleted')).toBeInTheDocument();
    expect(screen.queryByText('Unknown User')).not.toBeInTheDocument();
    expect(screen.getAllByText('Refused', { selector: '.mate-badge' })).toHaveLength(1);
  });

  it('says No audit logs found', async () => {
    api.admin.getAuditLogs.mockResolvedValue(page([]));
    renderAdmin(api, { route: '/admin/audit' });
    expect(await screen.findByText('No audit logs found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('offers every action label in the action filter', async () => {
    api.admin.getAuditLogs.mockResolvedValue(page([]));
    renderAdmin(api, { route: '/admin/audit' });
    await screen.findByText('No audit logs found');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All Actions',
      'Suspended User',
      'Unsuspended User',
      'Deleted User',
      'Resolved Report',
      'Approved Photo',
      'Rejected Photo',
      'Updated User Role',
      'Forced Logout',
    ]);
  });

  it('pages by 50 with Previous and Next, and Apply Filters goes back to page 1 with the filters', async () => {
    const user = userEvent.setup();
    api.admin.getAuditLogs.mockImplementation(async ({ offset = 0 } = {}) => page([anEntry(offset)], 120, offset));
    renderAdmin(api, { route: '/admin/audit' });
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(api.admin.getAuditLogs).toHaveBeenLastCalledWith(expect.objectContaining({ offset: 50, limit: 50 }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Search'), 'sam');
    await user.selectOptions(screen.getByLabelText('Action'), 'delete_user');
    await user.type(screen.getByLabelText('Start date'), '2026-11-01');
    await user.type(screen.getByLabelText('End date'), '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(api.admin.getAuditLogs).toHaveBeenLastCalledWith({
      action: 'delete_user',
      search: 'sam',
      startDate: '2026-11-01',
      endDate: '2026-11-30',
      limit: 50,
      offset: 0,
    });
  });

  it('only logs a failed load', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.admin.getAuditLogs.mockRejectedValue(new Error('down'));
    renderAdmin(api, { route: '/admin/audit' });
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reloads every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.admin.getAuditLogs.mockResolvedValue(page([anEntry(1)]));
    renderAdmin(api, { route: '/admin/audit' });
    await screen.findByText('Suspended User', { selector: '.mate-badge' });
    expect(api.admin.getAuditLogs).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(api.admin.getAuditLogs).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(api.admin.getAuditLogs).toHaveBeenCalledTimes(2));
  });
});
