import { ApiError } from '@mate/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, createFakeApi, storeSession, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

describe('OnboardingScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    storeSession();
    api.auth.me.mockResolvedValue(aUser());
  });

  it('shows the Welcome step of 5 and moves on with Next', async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: false }));
    renderWithApp(api, { route: '/onboarding' });
    expect(await screen.findByRole('heading', { name: 'Welcome to Mate!' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 5')).toBeInTheDocument();
    for (const step of ['Welcome', 'Basic Info', 'Photo', 'About You', 'Preferences']) {
      expect(screen.getByText(step)).toBeInTheDocument();
    }
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' })).toHaveAttribute('aria-valuenow', '1');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Basic Info' })).toBeInTheDocument();
    expect(screen.getByText(/not available yet/)).toBeInTheDocument();
  });

  it("'Skip for now' completes onboarding and goes to /dashboard", async () => {
    const user = userEvent.setup();
    api.profile.getMyProfile
      .mockResolvedValueOnce(aProfile({ onboardingCompleted: false }))
      .mockResolvedValueOnce(aProfile({ onboardingCompleted: false }))
      .mockResolvedValue(aProfile({ onboardingCompleted: true }));
    api.profile.completeOnboarding.mockResolvedValue(undefined);
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Skip for now' }));
    expect(api.profile.completeOnboarding).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
  });

  it("alerts 'Failed to skip. Please try again.' when skipping fails", async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: false }));
    api.profile.completeOnboarding.mockRejectedValue(new ApiError('Failed to complete onboarding', 500));
    renderWithApp(api, { route: '/onboarding' });
    await user.click(await screen.findByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to skip. Please try again.'));
    expect(screen.getByTestId('location').textContent).toBe('/onboarding');
  });

  it('sends a completed member to /dashboard and an unverified one to the prompt', async () => {
    api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: true }));
    const { unmount } = renderWithApp(api, { route: '/onboarding' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    unmount();

    api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false, onboardingCompleted: false }));
    renderWithApp(api, { route: '/onboarding' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/verify-email-prompt'));
  });
});
