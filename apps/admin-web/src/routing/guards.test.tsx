import { ApiError } from '@mate/api-client';
import { AUTH_TOKEN_KEY } from '@mate/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aUser, anAuthResponse, createFakeApi, signedInAdminApi, storeSession } from '../testing/fake-api';
import { MEMBER_WEB_URL, renderAdmin } from '../testing/render';

const location = () => screen.getByTestId('location').textContent;

function stubDashboard(api: ReturnType<typeof createFakeApi>) {
  api.admin.getStats.mockResolvedValue({
    users: { total: 0, active: 0, suspended: 0 },
    reports: { total: 0, pending: 0, byReason: [] },
    matches: { total: 0 },
  });
  api.admin.getReports.mockResolvedValue([]);
}

describe('admin guards and sign-in (spec 001 §2)', () => {
  it.each(['/admin', '/admin/users/u1', '/admin/photos', '/admin/analytics', '/admin/audit'])(
    'sends a visitor with no stored token from %s to the sign-in at /',
    async (route) => {
      const api = createFakeApi();
      renderAdmin(api, { route });
      expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
      expect(location()).toBe('/');
    },
  );

  it('sends unknown paths to /admin', async () => {
    const api = signedInAdminApi();
    stubDashboard(api);
    renderAdmin(api, { route: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/admin');
  });

  it("sends a stored non-admin to the member app's /dashboard (full URL)", async () => {
    storeSession(aUser({ role: 'member' }));
    const api = createFakeApi();
    api.auth.me.mockResolvedValue(aUser({ role: 'member' }));
    const { browser } = renderAdmin(api, { route: '/admin/photos' });
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith(`${MEMBER_WEB_URL}/dashboard`));
    expect(api.admin.getPendingPhotos).not.toHaveBeenCalled();
  });

  it('sends a stored token without a stored user to the member app too', async () => {
    storeSession(null);
    const api = createFakeApi();
    api.auth.me.mockResolvedValue({} as never);
    const { browser } = renderAdmin(api, { route: '/admin' });
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith(`${MEMBER_WEB_URL}/dashboard`));
  });

  it('signs an admin in with email and password and opens the dashboard', async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.auth.login.mockResolvedValue(anAuthResponse());
    stubDashboard(api);
    renderAdmin(api, { route: '/login' });
    await user.type(await screen.findByLabelText('Email'), ' admin@mate.test ');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(api.auth.login).toHaveBeenCalledWith({ email: 'admin@mate.test', password: 'secret-pass' });
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe('tok-admin');
    expect(location()).toBe('/admin');
  });

  it('refuses a non-admin with a link to the member app, ends that session and keeps nothing', async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.auth.login.mockResolvedValue(anAuthResponse(aUser({ role: 'member' }), 'tok-member'));
    renderAdmin(api, { route: '/' });
    await user.type(await screen.findByLabelText('Email'), 'member@mate.test');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('This account does not have admin access.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the member app' })).toHaveAttribute('href', `${MEMBER_WEB_URL}/dashboard`);
    expect(api.auth.logout).toHaveBeenCalled();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(location()).toBe('/');
  });

  it("shows the server's sign-in error", async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.auth.login.mockRejectedValue(new ApiError('Invalid email or password', 401, 'Invalid email or password'));
    renderAdmin(api, { route: '/' });
    await user.type(await screen.findByLabelText('Email'), 'a@b.c');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
  });

  it('forgets a stored session the server refuses and shows the sign-in', async () => {
    storeSession();
    const api = createFakeApi();
    api.auth.me.mockRejectedValue(new ApiError('Unauthorized', 401));
    renderAdmin(api, { route: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('signs out from the shell', async () => {
    const user = userEvent.setup();
    const api = signedInAdminApi();
    stubDashboard(api);
    renderAdmin(api, { route: '/admin' });
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(api.auth.logout).toHaveBeenCalled();
  });
});
