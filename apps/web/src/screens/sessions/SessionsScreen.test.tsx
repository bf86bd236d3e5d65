import type { SessionDto } from '@mate/contracts';
import { ApiError } from '@mate/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
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
});
