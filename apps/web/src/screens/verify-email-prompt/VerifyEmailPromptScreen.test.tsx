import { ApiError } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, logoutOutcomes, signedInApi, storedSession, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

const ROUTE = '/verify-email-prompt';
const location = () => screen.getByTestId('location').textContent;

/** Spec 000 §2, the verify email prompt. */
describe('VerifyEmailPromptScreen (/verify-email-prompt)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi(aProfile({ isVerified: false, onboardingCompleted: false }));
  });

  it('asks the member to open the link sent to their address', async () => {
    renderWithApp(api, { route: ROUTE });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify Your Email' })).toBeInTheDocument();
    expect(screen.getByText(/We sent a verification link to/)).toHaveTextContent('ada@example.com');
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeEnabled();
    expect(location()).toBe(ROUTE);
  });

  it('checks the profile on load: a member verified meanwhile goes to /dashboard', async () => {
    api.profile.getMyProfile
      .mockResolvedValueOnce(aProfile({ isVerified: false, onboardingCompleted: false }))
      .mockResolvedValue(aProfile());
    renderWithApp(api, { route: ROUTE });
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it('still shows the prompt when the profile check fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.profile.getMyProfile
      .mockResolvedValueOnce(aProfile({ isVerified: false, onboardingCompleted: false }))
      .mockRejectedValue(new ApiError('Service unavailable', 503));
    renderWithApp(api, { route: ROUTE });
    // The check is retried once, a second later; after the second failure the prompt stays.
    expect(
      await screen.findByRole('button', { name: 'Resend Verification Email' }, { timeout: 3_000 }),
    ).toBeInTheDocument();
    expect(api.profile.getMyProfile).toHaveBeenCalledTimes(3);
    expect(location()).toBe(ROUTE);
  });

  it("Resend Verification Email shows the server's answer, its error, or 'Failed to send verification email'", async () => {
    const user = userEvent.setup();
    const limited = 'Too many requests, please try again later';
    api.verification.resend
      .mockResolvedValueOnce({ message: AuthMessages.verificationSent })
      .mockRejectedValueOnce(new ApiError(limited, 429, limited))
      .mockRejectedValueOnce(new ApiError('Network error', 0));
    renderWithApp(api, { route: ROUTE });
    const resend = await screen.findByRole('button', { name: 'Resend Verification Email' });

    await user.click(resend);
    expect(await screen.findByText(AuthMessages.verificationSent)).toBeInTheDocument();
    await user.click(resend);
    expect(await screen.findByRole('alert')).toHaveTextContent(limited);
    await user.click(resend);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to send verification email'));
    expect(api.verification.resend).toHaveBeenCalledTimes(3);
  });

  it.each(logoutOutcomes)('Back to Login clears the stored session and goes to /login, never to / (%s)', async (_case, arrange) => {
    arrange(api);
    const user = userEvent.setup();
    const { visited } = renderWithApp(api, { route: ROUTE });
    await user.click(await screen.findByRole('button', { name: 'Back to Login' }));

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(location()).toBe('/login');
    expect(visited).not.toContain('/');
    expect(api.auth.logout).toHaveBeenCalledTimes(1);
    expect(storedSession()).toEqual([null, null, null]);
  });
});
