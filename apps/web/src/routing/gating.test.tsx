import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, createFakeApi, storeSession, type FakeApi } from '../testing/fake-api';
import { adminAppNavigation } from '../admin/AdminRedirect';
import { renderWithApp } from '../testing/render';
import { ROUTE_ERROR_TEXT, RouteBoundary } from '@mate/ui';

const location = () => screen.getByTestId('location').textContent;

describe('routing and gating (spec 000 §2)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  function signedIn(profile = aProfile(), user = aUser()) {
    storeSession(user);
    api.auth.me.mockResolvedValue(user);
    api.profile.getMyProfile.mockResolvedValue(profile);
  }

  describe('signed out', () => {
    it.each(['/dashboard', '/settings/sessions', '/onboarding', '/admin', '/no/such/page'])(
      'sends %s to the sign-in screen at /',
      async (path) => {
        renderWithApp(api, { route: path });
        expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
        expect(location()).toBe('/');
      },
    );

    it('serves /login as the sign-in screen', async () => {
      renderWithApp(api, { route: '/login' });
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      expect(location()).toBe('/login');
    });

    it('keeps the public routes public', async () => {
      renderWithApp(api, { route: '/forgot-password' });
      expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();
      expect(location()).toBe('/forgot-password');
    });
  });

  describe('signed in', () => {
    it("shows only a full-screen 'Loading...' while the profile loads", async () => {
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockReturnValue(new Promise(() => undefined));
      renderWithApp(api, { route: '/dashboard' });
      expect(await screen.findByText('Loading...')).toBeInTheDocument();
      expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
      expect(screen.queryByText('AI-Driven Dating Platform')).not.toBeInTheDocument();
    });

    it('sends an unverified member to /verify-email-prompt', async () => {
      signedIn(aProfile({ isVerified: false, onboardingCompleted: false }));
      renderWithApp(api, { route: '/dashboard' });
      await waitFor(() => expect(location()).toBe('/verify-email-prompt'));
      expect(await screen.findByRole('heading', { name: 'Verify Your Email' })).toBeInTheDocument();
    });

    it('sends a verified member who has not finished onboarding to /onboarding', async () => {
      signedIn(aProfile({ isVerified: true, onboardingCompleted: false }));
      renderWithApp(api, { route: '/discover' });
      await waitFor(() => expect(location()).toBe('/onboarding'));
      expect(await screen.findByRole('heading', { name: 'Welcome to Mate!' })).toBeInTheDocument();
    });

    it('lets an active member in and sends / and unknown paths to /dashboard', async () => {
      signedIn();
      renderWithApp(api, { route: '/' });
      await waitFor(() => expect(location()).toBe('/dashboard'));
      expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    });

    it('redirects an unknown path to /dashboard', async () => {
      signedIn();
      renderWithApp(api, { route: '/this/does/not/exist' });
      await waitFor(() => expect(location()).toBe('/dashboard'));
    });

    it('routes / by the gating for an unverified member too', async () => {
      signedIn(aProfile({ isVerified: false }));
      renderWithApp(api, { route: '/' });
      await waitFor(() => expect(location()).toBe('/verify-email-prompt'));
    });

    it('routes / to /onboarding for a verified member who has not finished onboarding', async () => {
      signedIn(aProfile({ isVerified: true, onboardingCompleted: false }));
      renderWithApp(api, { route: '/' });
      await waitFor(() => expect(location()).toBe('/onboarding'));
    });

    it('offers Try Again when the profile fails to load twice, and loads it then', async () => {
      const user = userEvent.setup();
      signedIn();
      api.profile.getMyProfile
        .mockRejectedValueOnce(new Error('Service unavailable'))
        .mockRejectedValueOnce(new Error('Service unavailable'))
        .mockResolvedValue(aProfile());
      renderWithApp(api, { route: '/dashboard' });

      // The first failure is retried a second later; the second one shows this.
      expect(
        await screen.findByRole('heading', { name: "We couldn't load your profile" }, { timeout: 3_000 }),
      ).toBeInTheDocument();
      expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Try Again' }));
      expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
      expect(location()).toBe('/dashboard');
    });

    it('lets the member sign out when the profile cannot be loaded', async () => {
      const user = userEvent.setup();
      signedIn();
      api.profile.getMyProfile.mockRejectedValue(new Error('Service unavailable'));
      api.auth.logout.mockResolvedValue(undefined);
      renderWithApp(api, { route: '/dashboard' });

      await user.click(await screen.findByRole('button', { name: 'Sign Out' }, { timeout: 3_000 }));
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      expect(location()).toBe('/');
      expect(api.auth.logout).toHaveBeenCalledTimes(1);
    });

    it("opens /call/{userId} for an active member: with no call there it says 'Call ended' and goes back to /dashboard", async () => {
      signedIn();
      renderWithApp(api, { route: '/call/u-42' });
      expect(await screen.findByRole('heading', { name: 'Call ended', level: 1 })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
      await waitFor(() => expect(location()).toBe('/dashboard'));
    });

    it('sends a non-admin away from /admin to /dashboard and admins to the admin app at the same path', async () => {
      const assign = vi.spyOn(adminAppNavigation, 'assign').mockImplementation(() => undefined);
      signedIn();
      const { unmount } = renderWithApp(api, { route: '/admin' });
      await waitFor(() => expect(location()).toBe('/dashboard'));
      expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
      expect(assign).not.toHaveBeenCalled();
      unmount();

      signedIn(aProfile(), aUser({ role: 'admin' }));
      renderWithApp(api, { route: '/admin' });
      await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:4300/admin'));
      expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    });

    it.each(['/admin/users/u-1', '/admin/photos', '/admin/analytics', '/admin/audit?action=delete_user'])(
      'opens %s in the admin app, whatever the profile state',
      async (route) => {
        const assign = vi.spyOn(adminAppNavigation, 'assign').mockImplementation(() => undefined);
        signedIn(aProfile({ isVerified: false }), aUser({ role: 'admin' }));
        renderWithApp(api, { route });
        await waitFor(() => expect(assign).toHaveBeenCalledWith(`http://localhost:4300${route}`));
      },
    );
  });
});

describe('RouteBoundary', () => {
  it('shows the route title, the spec text, and recovers with Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    function Flaky() {
      if (fail) throw new Error('boom');
      return <p>Recovered</p>;
    }
    const api = createFakeApi();
    renderWithApp(api, {
      children: (
        <RouteBoundary title="Chat Error">
          <Flaky />
        </RouteBoundary>
      ),
    });
    expect(screen.getByRole('heading', { name: 'Chat Error' })).toBeInTheDocument();
    expect(screen.getByText(ROUTE_ERROR_TEXT)).toBeInTheDocument();
    expect(ROUTE_ERROR_TEXT).toBe(
      "Something went wrong. We encountered an unexpected error. Don't worry, your data is safe.",
    );
    expect(screen.getByRole('button', { name: 'Go Home' })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Recovered')).toBeInTheDocument();
  });
});
