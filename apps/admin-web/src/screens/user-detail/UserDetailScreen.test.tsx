import { ApiError } from '@mate/api-client';
import type { AdminUserDetailDto } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { createFakeBrowser } from '../../testing/fake-browser';
import { renderAdmin } from '../../testing/render';

function aDetail(overrides: Partial<AdminUserDetailDto> = {}): AdminUserDetailDto {
  return {
    id: 'u1',
    name: 'Sam Member',
    email: 'sam@mate.test',
    age: 29,
    gender: 'woman',
    location: 'Austin, TX',
    role: 'member',
    bio: 'Hiker',
    createdAt: '2026-01-02T00:00:00.000Z',
    lastActive: '2026-11-20T00:00:00.000Z',
    isVerified: true,
    isActive: true,
    isSuspended: false,
    suspendedAt: null,
    suspensionReason: null,
    photos: [
      { id: 'p1', url: '/api/photos/files/p1/large.webp' },
      // An older shape of URL is loaded as it is.
      { id: 'p2', url: '/uploads/p2.webp' },
    ],
    matchCount: 4,
    reportsMade: 1,
    reportsReceived: 2,
    unavailable: [],
    ...overrides,
  };
}

const applied = { applied: true, auditId: 'a1' };
const field = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('UserDetailScreen (spec 001 §2 Admin user detail)', () => {
  let api: FakeAdminApi;
  beforeEach(() => {
    api = signedInAdminApi();
  });

  it('shows Loading user details, then the sections, and a back arrow to /admin', async () => {
    api.admin.getUser.mockResolvedValue(aDetail());
    renderAdmin(api, { route: '/admin/users/u1' });
    expect(await screen.findByText('Loading user details')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Profile Information' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'User Activity' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Moderation Actions' })).toBeInTheDocument();
    expect(api.admin.getUser).toHaveBeenCalledWith('u1');
    expect(field('Age')).toHaveTextContent('29');
    expect(field('Location')).toHaveTextContent('Austin, TX');
    expect(field('Matches')).toHaveTextContent('4');
    // A third of the card: the 600 px file, not the 1200 px one the server names.
    expect(screen.getByRole('img', { name: 'Photo 1 of Sam Member' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/p1/medium.webp',
    );
    expect(screen.getByRole('img', { name: 'Photo 2 of Sam Member' })).toHaveAttribute('src', 'http://api.test/uploads/p2.webp');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');
    expect(screen.queryByText('This user is suspended')).not.toBeInTheDocument();
  });

  it('shows N/A for missing age, gender and location, and Never for a missing lastActive', async () => {
    api.admin.getUser.mockResolvedValue(aDetail({ age: null, gender: null, location: null, lastActive: null }));
    renderAdmin(api, { route: '/admin/users/u1' });
    await screen.findByRole('heading', { name: 'Profile Information' });
    expect(field('Age')).toHaveTextContent('N/A');
    expect(field('Gender')).toHaveTextContent('N/A');
    expect(field('Location')).toHaveTextContent('N/A');
    expect(field('Last Active')).toHaveTextContent('Never');
  });

  it('shows N/A, not Never, and offers no suspension action when the account part did not answer', async () => {
    api.admin.getUser.mockResolvedValue(
      aDetail({ email: null, role: null, createdAt: null, lastActive: null, isVerified: null, isActive: null, isSuspended: null, unavailable: ['account'] }),
    );
    renderAdmin(api, { route: '/admin/users/u1' });
    await screen.findByRole('heading', { name: 'Profile Information' });
    expect(field('Last Active')).toHaveTextContent('N/A');
    expect(screen.queryByRole('button', { name: 'Suspend User' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsuspend User' })).not.toBeInTheDocument();
    expect(screen.getByText(/could not be loaded \(account\)/)).toBeInTheDocument();
  });

  it('shows the suspended banner and offers Unsuspend instead of Suspend', async () => {
    api.admin.getUser.mockResolvedValue(
      aDetail({ isSuspended: true, suspensionReason: 'Spam', suspendedAt: '2026-11-21T00:00:00.000Z' }),
    );
    renderAdmin(api, { route: '/admin/users/u1' });
    const banner = await screen.findByText('This user is suspended');
    expect(banner.closest('[role="alert"]') ?? banner.parentElement).toHaveTextContent('Reason: Spam');
    expect(screen.getByRole('button', { name: 'Unsuspend User' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend User' })).not.toBeInTheDocument();
  });

  it('shows User not found with Back to Dashboard for a missing user', async () => {
    const user = userEvent.setup();
    api.admin.getUser.mockRejectedValue(new ApiError('Failed to get user details', 404));
    renderAdmin(api, { route: '/admin/users/nobody' });
    expect(await screen.findByText('User not found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin');
  });

  it("shows the server's error, or Failed to load user details", async () => {
    api.admin.getUser.mockRejectedValue(new ApiError('Service unavailable', 503, 'Service unavailable'));
    const { unmount } = renderAdmin(api, { route: '/admin/users/u1' });
    expect(await screen.findByText('Service unavailable')).toBeInTheDocument();
    unmount();
    api.admin.getUser.mockRejectedValue(new Error(''));
    renderAdmin(api, { route: '/admin/users/u1' });
    expect(await screen.findByText('Failed to load user details')).toBeInTheDocument();
  });

  it.each([null, '', '   '])('a cancelled or empty suspension reason (%j) aborts with no call', async (answer) => {
    const user = userEvent.setup();
    const browser = createFakeBrowser();
    browser.prompt.mockReturnValue(answer);
    api.admin.getUser.mockResolvedValue(aDetail());
    renderAdmin(api, { route: '/admin/users/u1', browser });
    await user.click(await screen.findByRole('button', { name: 'Suspend User' }));
    expect(browser.prompt).toHaveBeenCalledWith('Enter suspension reason:');
    expect(api.admin.suspendUser).not.toHaveBeenCalled();
    expect(browser.alert).not.toHaveBeenCalled();
  });

  it('suspends with the reason, alerts success and reloads', async () => {
    const user = userEvent.setup();
    const browser = createFakeBrowser();
    browser.prompt.mockReturnValue(' Spam messages ');
    api.admin.getUser.mockResolvedValueOnce(aDetail()).mockResolvedValue(aDetail({ isSuspended: true, suspensionReason: 'Spam messages' }));
    api.admin.suspendUser.mockResolvedValue(applied);
    renderAdmin(api, { route: '/admin/users/u1', browser });
    await user.click(await screen.findByRole('button', { name: 'Suspend User' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('User suspended successfully'));
    expect(api.admin.suspendUser).toHaveBeenCalledWith('u1', 'Spam messages');
    expect(await screen.findByText('This user is suspended')).toBeInTheDocument();
  });

  it('alerts a failed suspension with the server message or the fallback', async () => {
    const user = userEvent.setup();
    const browser = createFakeBrowser();
    browser.prompt.mockReturnValue('Spam');
    api.admin.getUser.mockResolvedValue(aDetail());
    api.admin.suspendUser.mockRejectedValue(new ApiError('Failed to suspend user', 500));
    renderAdmin(api, { route: '/admin/users/u1', browser });
    await user.click(await screen.findByRole('button', { name: 'Suspend User' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('Failed to suspend user'));
  });

  it('unsuspends only after confirmation', async () => {
    const user = userEvent.setup();
    const browser = createFakeBrowser();
    api.admin.getUser.mockResolvedValue(aDetail({ isSuspended: true }));
    api.admin.unsuspendUser.mockResolvedValue(applied);
    renderAdmin(api, { route: '/admin/users/u1', browser });
    await user.click(await screen.findByRole('button', { name: 'Unsuspend User' }));
    expect(browser.confirm).toHaveBeenCalledWith('Are you sure you want to unsuspend this user?');
    expect(api.admin.unsuspendUser).not.toHaveBeenCalled();

    browser.confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Unsuspend User' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('User unsuspended successfully'));
    expect(api.admin.unsuspendUser).toHaveBeenCalledWith('u1');
  });

  it('deletes only after both confirmations, then alerts and goes to /admin', async () => {
    const user = userEvent.setup();
    const browser = createFakeBrowser();
    api.admin.getUser.mockResolvedValue(aDetail());
    api.admin.deleteUser.mockResolvedValue(applied);
    api.admin.getStats.mockResolvedValue({
      users: { total: 1, active: 1, suspended: 0 },
      reports: { total: 0, pending: 0, byReason: [] },
      matches: { total: 0 },
    });
    api.admin.getReports.mockResolvedValue([]);
    renderAdmin(api, { route: '/admin/users/u1', browser });

    // First confirmation refused.
    await user.click(await screen.findByRole('button', { name: 'Delete User' }));
    expect(browser.confirm).toHaveBeenCalledTimes(1);
    expect(browser.confirm.mock.calls[0][0]).toContain('Sam Member');
    expect(browser.confirm.mock.calls[0][0]).toContain('cannot be undone');

    // First accepted, FINAL WARNING refused.
    browser.confirm.mockReturnValueOnce(true).mockReturnValueOnce(false);
    await user.click(screen.getByRole('button', { name: 'Delete User' }));
    expect(browser.confirm).toHaveBeenLastCalledWith('FINAL WARNING: This will permanently delete all user data. Continue?');
    expect(api.admin.deleteUser).not.toHaveBeenCalled();

    browser.confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Delete User' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('User deleted successfully'));
    expect(api.admin.deleteUser).toHaveBeenCalledWith('u1');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(within(screen.getByTestId('location')).getByText('/admin')).toBeInTheDocument();
  });
});
