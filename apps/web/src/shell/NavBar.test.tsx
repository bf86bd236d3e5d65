import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, createFakeApi, storeSession, type FakeApi } from '../testing/fake-api';
import { adminAppNavigation } from '../admin/AdminRedirect';
import { renderWithApp } from '../testing/render';

const SPEC_ITEMS = [
  'Dashboard',
  'Discover',
  'Messages',
  'Match Preferences',
  'Filters',
  'Profile',
  'Calls',
  'Safety',
  'Notifications',
  'Sessions',
  'Privacy',
  'Account',
];

describe('navigation bar and mobile menu', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
  });

  async function renderShell(profile = aProfile(), user = aUser()) {
    storeSession(user);
    api.auth.me.mockResolvedValue(user);
    api.profile.getMyProfile.mockResolvedValue(profile);
    renderWithApp(api, { route: '/dashboard' });
    return screen.findByRole('navigation', { name: 'Main' });
  }

  it('has every item of spec 000 §2 in order, and Logout', async () => {
    const nav = await renderShell();
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links.filter((text) => SPEC_ITEMS.includes(text ?? ''))).toEqual(SPEC_ITEMS);
    expect(within(nav).getByRole('link', { name: 'Messages' })).toHaveAttribute('href', '/matches');
    expect(within(nav).getByRole('link', { name: 'Match Preferences' })).toHaveAttribute('href', '/preferences');
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Continue Onboarding' })).not.toBeInTheDocument();
  });

  it('shows Admin to admins and Continue Onboarding while onboarding is incomplete', async () => {
    // /admin opens the admin app (a full-page navigation this test does not follow).
    vi.spyOn(adminAppNavigation, 'assign').mockImplementation(() => undefined);
    storeSession(aUser({ role: 'admin' }));
    api.auth.me.mockResolvedValue(aUser({ role: 'admin' }));
    api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: false }));
    renderWithApp(api, { route: '/admin' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    expect(within(nav).getByRole('link', { name: 'Continue Onboarding' })).toHaveAttribute('href', '/onboarding');
  });

  it('opens with the toggle, locks body scrolling, and closes on Escape', async () => {
    const user = userEvent.setup();
    await renderShell();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.body.style.overflow).toBe('');

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveClass('app-nav--open');
    expect(document.body.style.overflow).toBe('hidden');

    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveClass('app-nav--open');
    expect(document.body.style.overflow).toBe('');
  });

  it('closes when the backdrop is tapped', async () => {
    const user = userEvent.setup();
    await renderShell();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByTestId('nav-backdrop'));
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(document.body.style.overflow).toBe('');
  });

  it('closes when an item is chosen, and goes there', async () => {
    const user = userEvent.setup();
    api.sessions.mySessions.mockResolvedValue([]);
    await renderShell();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Sessions' }));
    expect(screen.getByTestId('location').textContent).toBe('/settings/sessions');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(document.body.style.overflow).toBe('');
  });

  it('logs out from the menu and lands on the sign-in screen, even if the server fails', async () => {
    const user = userEvent.setup();
    api.auth.logout.mockRejectedValue(new Error('offline'));
    await renderShell();
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });
});
