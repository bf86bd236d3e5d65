import { SESSIONS_REFRESH_INTERVAL, type SessionDto } from '@mate/contracts';
import { ApiError } from '@mate/api-client';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../../lib/relative-time';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const current: SessionDto = {
  id: 'cur',
  deviceInfo: 'Chrome 131 on macOS',
  ipAddress: '10.0.0.1',
  lastActivity: minutesAgo(0),
  createdAt: minutesAgo(600),
  isCurrent: true,
};
const phone: SessionDto = {
  id: 'ph',
  deviceInfo: 'Mobile Safari on iOS (iPhone)',
  lastActivity: minutesAgo(5),
  createdAt: minutesAgo(900),
  isCurrent: false,
};

describe('SessionsScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
  });

  it('says when this is the only session', async () => {
    api.sessions.mySessions.mockResolvedValue([current]);
    renderWithApp(api, { route: '/settings/sessions' });
    expect(await screen.findByText('This is your only active session.')).toBeInTheDocument();
    expect(screen.getByText('Current Session')).toBeInTheDocument();
    expect(screen.getByText('10.0.0.1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout All Other Devices' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByText(/Sessions expire after 7 days of inactivity/)).toBeInTheDocument();
  });

  it("shows the current session's real last activity from the server, like the others", async () => {
    // Issue 7 item 13: it used to say 'Just now' whatever the server answered.
    api.sessions.mySessions.mockResolvedValue([{ ...current, lastActivity: minutesAgo(3) }, phone]);
    renderWithApp(api, { route: '/settings/sessions' });
    const item = await screen.findByRole('listitem', { name: 'Chrome 131 on macOS' });
    expect(within(item).getByText('Current Session')).toBeInTheDocument();
    expect(within(item).getByText('Last active: 3 minutes ago')).toBeInTheDocument();
    expect(within(item).queryByText('Last active: Just now')).not.toBeInTheDocument();
    expect(screen.getByText('Last active: 5 minutes ago')).toBeInTheDocument();
  });

  it('says Just now for a current session the server saw under a minute ago', async () => {
    api.sessions.mySessions.mockResolvedValue([current]);
    renderWithApp(api, { route: '/settings/sessions' });
    const item = await screen.findByRole('listitem', { name: 'Chrome 131 on macOS' });
    expect(within(item).getByText('Last active: Just now')).toBeInTheDocument();
  });

  it('logs out another session after confirmation and drops it from the list', async () => {
    const user = userEvent.setup();
    api.sessions.mySessions.mockResolvedValue([current, phone]);
    api.sessions.deleteSession.mockResolvedValue({ message: 'Session logged out' });
    renderWithApp(api, { route: '/settings/sessions' });

    expect(await screen.findByText('Last active: 5 minutes ago')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Phone' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Logout Mobile Safari on iOS (iPhone)' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Logout Session?' });
    await user.click(within(dialog).getByRole('button', { name: 'Logout' }));

    expect(api.sessions.deleteSession).toHaveBeenCalledWith('ph');
    await waitFor(() => expect(screen.queryByText('Mobile Safari on iOS (iPhone)')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('This is your only active session.')).toBeInTheDocument();
  });

  it('logs out all other devices after confirmation and reloads the list', async () => {
    const user = userEvent.setup();
    api.sessions.mySessions.mockResolvedValueOnce([current, phone]).mockResolvedValue([current]);
    api.sessions.deleteOtherSessions.mockResolvedValue({ message: 'All other sessions logged out' });
    renderWithApp(api, { route: '/settings/sessions' });

    await user.click(await screen.findByRole('button', { name: 'Logout All Other Devices' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Logout All Other Devices?' });
    await user.click(within(dialog).getByRole('button', { name: 'Logout All' }));

    await waitFor(() => expect(api.sessions.mySessions).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('This is your only active session.')).toBeInTheDocument();
  });

  it("shows the server's error when a logout fails", async () => {
    const user = userEvent.setup();
    api.sessions.mySessions.mockResolvedValue([current, phone]);
    api.sessions.deleteSession.mockRejectedValue(new ApiError('Failed to delete session', 500));
    renderWithApp(api, { route: '/settings/sessions' });
    await user.click(await screen.findByRole('button', { name: 'Logout Mobile Safari on iOS (iPhone)' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to logout session');
  });

  it('lists the other sessions under a count badge, each with its device icon and signed-in time', async () => {
    const tablet: SessionDto = {
      id: 'tb',
      deviceInfo: 'Safari on iPadOS (iPad)',
      lastActivity: minutesAgo(60 * 26),
      createdAt: minutesAgo(60 * 30),
      isCurrent: false,
    };
    api.sessions.mySessions.mockResolvedValue([current, phone, tablet]);
    renderWithApp(api, { route: '/settings/sessions' });

    const others = (await screen.findByText('Other Sessions')).closest('.sessions__other-title') as HTMLElement;
    expect(others).toHaveTextContent(/^Other Sessions 2$/);
    const item = screen.getByRole('listitem', { name: 'Safari on iPadOS (iPad)' });
    expect(within(item).getByRole('img', { name: 'Tablet' })).toBeInTheDocument();
    expect(within(item).getByText('Last active: 1 day ago')).toBeInTheDocument();
    expect(within(item).getByText(`Signed in: ${formatTimestamp(tablet.createdAt)}`)).toBeInTheDocument();
    const here = screen.getByRole('listitem', { name: 'Chrome 131 on macOS' });
    expect(within(here).getByRole('img', { name: 'Computer' })).toBeInTheDocument();
    expect(within(here).queryByRole('button', { name: /Logout/ })).not.toBeInTheDocument();
  });

  it('refreshes the list every 30 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.sessions.mySessions.mockResolvedValueOnce([current]).mockResolvedValue([current, phone]);
    renderWithApp(api, { route: '/settings/sessions' });
    expect(await screen.findByText('This is your only active session.')).toBeInTheDocument();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(SESSIONS_REFRESH_INTERVAL - 1_000);
    });
    expect(api.sessions.mySessions).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(await screen.findByRole('listitem', { name: 'Mobile Safari on iOS (iPhone)' })).toBeInTheDocument();
    expect(api.sessions.mySessions).toHaveBeenCalledTimes(2);
  });

  it("says 'Failed to load sessions' when the list cannot be loaded, and Try Again loads it", async () => {
    const user = userEvent.setup();
    api.sessions.mySessions
      .mockRejectedValueOnce(new ApiError('Failed to fetch sessions', 500, 'Failed to fetch sessions'))
      .mockResolvedValue([current]);
    renderWithApp(api, { route: '/settings/sessions' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load sessions');
    expect(alert).toHaveTextContent('Failed to fetch sessions');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('This is your only active session.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's error, or 'Failed to logout all sessions', when logging out the others fails", async () => {
    const user = userEvent.setup();
    api.sessions.mySessions.mockResolvedValue([current, phone]);
    api.sessions.deleteOtherSessions
      .mockRejectedValueOnce(new ApiError('Session not found', 404, 'Session not found'))
      .mockRejectedValueOnce(new ApiError('Request failed', 500));
    renderWithApp(api, { route: '/settings/sessions' });

    const logoutAll = async () => {
      await user.click(await screen.findByRole('button', { name: 'Logout All Other Devices' }));
      await user.click(
        within(screen.getByRole('alertdialog', { name: 'Logout All Other Devices?' })).getByRole('button', {
          name: 'Logout All',
        }),
      );
    };
    await logoutAll();
    expect(await screen.findByRole('alert')).toHaveTextContent('Session not found');
    await logoutAll();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to logout all sessions'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // Nothing was removed: the other session is still listed.
    expect(screen.getByRole('listitem', { name: 'Mobile Safari on iOS (iPhone)' })).toBeInTheDocument();
  });
});
