import { ApiError } from '@mate/api-client';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY, AuthMessages, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, createFakeApi, signedInApi, storeSession, type FakeApi } from '../testing/fake-api';
import { renderWithApp } from '../testing/render';

const location = () => screen.getByTestId('location').textContent;
/** Lets `ms` of fake time pass, redirect timers included. */
const advanceTimers = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

/** A 400 whose body said `{ error: reason }`, as the services refuse a used or unknown link. */
const refusal = (reason: string) => new ApiError(reason, 400, reason);

describe('pages opened from email links', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
  });
  afterEach(() => vi.useRealTimers());

  describe('/verify-email', () => {
    it("says 'Invalid verification link' without a token", async () => {
      renderWithApp(api, { route: '/verify-email' });
      expect(await screen.findByText('Invalid verification link')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Go to Login' })).toBeInTheDocument();
      expect(api.verification.verify).not.toHaveBeenCalled();
    });

    it('verifies once, clears the stored session and goes to / after 2 s', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false }));
      api.verification.verify.mockResolvedValue({ message: 'Email verified successfully' });
      renderWithApp(api, { route: '/verify-email?token=abc' });

      expect(await screen.findByRole('heading', { name: 'Email Verified!' })).toBeInTheDocument();
      expect(api.verification.verify).toHaveBeenCalledTimes(1);
      expect(api.verification.verify).toHaveBeenCalledWith('abc');
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(AUTH_USER_KEY)).toBeNull();
      expect(location()).toBe('/verify-email?token=abc');

      await advanceTimers(2000);
      expect(location()).toBe('/');
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    });

    it("shows the server's reason and Go to Login on failure", async () => {
      const user = userEvent.setup();
      api.verification.verify.mockRejectedValue(refusal('This verification link is invalid or has expired.'));
      renderWithApp(api, { route: '/verify-email?token=old' });
      expect(await screen.findByText('This verification link is invalid or has expired.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Go to Login' }));
      expect(location()).toBe('/login');
    });
  });

  describe('/reset-password', () => {
    it("says 'Invalid reset link' without a token and offers a new link", async () => {
      const user = userEvent.setup();
      renderWithApp(api, { route: '/reset-password' });
      expect(await screen.findByText('Invalid reset link')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Request New Link' }));
      // The next screen's code loads on demand: the move completes once it is there.
      await waitFor(() => expect(location()).toBe('/forgot-password'));
    });

    it('shows the invalid-link view when the token is refused', async () => {
      api.auth.verifyResetToken.mockRejectedValue(new ApiError('Invalid or expired reset link', 400));
      renderWithApp(api, { route: '/reset-password?token=bad' });
      expect(await screen.findByText('Invalid or expired reset link')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Request New Link' })).toBeInTheDocument();
    });

    it('validates the form, resets, and goes to / after 3 s', async () => {
      const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
      vi.useFakeTimers({ shouldAdvanceTime: true });
      api.auth.verifyResetToken.mockResolvedValue({ valid: true });
      api.auth.resetPassword.mockResolvedValue({ message: 'Your password has been reset. You can now sign in.' });
      renderWithApp(api, { route: '/reset-password?token=good' });

      const password = await screen.findByLabelText('New Password');
      await user.type(password, 'short');
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters');

      await user.clear(password);
      await user.type(password, 'long-enough');
      await user.type(screen.getByLabelText('Confirm Password'), 'different!');
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
      expect(api.auth.resetPassword).not.toHaveBeenCalled();

      await user.clear(screen.getByLabelText('Confirm Password'));
      await user.type(screen.getByLabelText('Confirm Password'), 'long-enough');
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(await screen.findByRole('heading', { name: 'Password Reset!' })).toBeInTheDocument();
      expect(api.auth.resetPassword).toHaveBeenCalledWith({ token: 'good', newPassword: 'long-enough' });

      await advanceTimers(2900);
      expect(location()).toBe('/reset-password?token=good');
      await advanceTimers(100);
      expect(location()).toBe('/');
    });

    it("says 'Validating reset link...' while the token is checked, and 'Failed to validate reset link' when the server cannot be reached", async () => {
      let fail: (error: ApiError) => void = () => undefined;
      api.auth.verifyResetToken.mockReturnValue(new Promise((_resolve, reject) => (fail = reject)));
      renderWithApp(api, { route: '/reset-password?token=t2' });
      expect(await screen.findByText('Validating reset link...')).toBeInTheDocument();
      expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
      expect(api.auth.verifyResetToken).toHaveBeenCalledWith('t2');

      act(() => fail(new ApiError('Network error', 0)));
      expect(await screen.findByText('Failed to validate reset link')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Request New Link' })).toBeInTheDocument();
    });

    it("shows the server's refusal as is, or 'Failed to reset password', and stays on the form", async () => {
      const user = userEvent.setup();
      api.auth.verifyResetToken.mockResolvedValue({ valid: true });
      const expired = 'This password reset link is invalid or has expired.';
      api.auth.resetPassword
        .mockRejectedValueOnce(new ApiError(expired, 400, expired))
        .mockRejectedValueOnce(new ApiError('Network error', 0));
      renderWithApp(api, { route: '/reset-password?token=good' });
      await user.type(await screen.findByLabelText('New Password'), 'long-enough');
      await user.type(screen.getByLabelText('Confirm Password'), 'long-enough');

      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(expired);
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to reset password$/));
      expect(screen.queryByRole('heading', { name: 'Password Reset!' })).not.toBeInTheDocument();
      expect(location()).toBe('/reset-password?token=good');
    });
  });

  describe('/verify-email-change', () => {
    it('shows the new email and goes to / after 3 s', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      api.auth.verifyEmailChange.mockResolvedValue({ message: 'Email updated successfully', newEmail: 'new@example.com' });
      renderWithApp(api, { route: '/verify-email-change?token=t1' });
      expect(await screen.findByText('new@example.com')).toBeInTheDocument();
      expect(api.auth.verifyEmailChange).toHaveBeenCalledWith('t1');
      await advanceTimers(3000);
      expect(location()).toBe('/');
    });

    it('shows the pending view while verifying, then its own message when the server gives no reason', async () => {
      let refuse: (error: ApiError) => void = () => undefined;
      api.auth.verifyEmailChange.mockReturnValue(
        new Promise((_resolve, reject) => {
          refuse = reject;
        }),
      );
      renderWithApp(api, { route: '/verify-email-change?token=t2' });
      expect(await screen.findByRole('heading', { name: 'Verifying your new email...' })).toBeInTheDocument();
      expect(document.title).toContain('Confirm Email Change');
      // Refused only once asked for: a rejection no one listens to yet is an unhandled one.
      await waitFor(() => expect(api.auth.verifyEmailChange).toHaveBeenCalled());
      refuse(new ApiError('Bad Gateway', 502));
      expect(await screen.findByRole('heading', { name: 'Email Change Failed' })).toBeInTheDocument();
      expect(screen.getByText('Failed to verify email change')).toBeInTheDocument();
      expect(api.auth.verifyEmailChange).toHaveBeenCalledTimes(1);
    });

    it("fails with 'Invalid verification link' without a token and offers Back to Home", async () => {
      const user = userEvent.setup();
      renderWithApp(api, { route: '/verify-email-change' });
      expect(await screen.findByText('Invalid verification link')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Back to Home' }));
      expect(location()).toBe('/');
    });
  });

  describe('/cancel-email-change (issue 7: the link sent to the current address)', () => {
    it('cancels once with the link token and tells what to do next, staying on the page', async () => {
      const user = userEvent.setup();
      api.auth.cancelEmailChange.mockResolvedValue({
        message: 'The email change was cancelled. Your account keeps its current address.',
      });
      renderWithApp(api, { route: '/cancel-email-change?token=c1' });
      expect(await screen.findByRole('heading', { name: 'Email Change Cancelled' })).toBeInTheDocument();
      expect(
        screen.getByText('The email change was cancelled. Your account keeps its current address.'),
      ).toBeInTheDocument();
      expect(api.auth.cancelEmailChange).toHaveBeenCalledTimes(1);
      expect(api.auth.cancelEmailChange).toHaveBeenCalledWith('c1');
      expect(document.title).toContain('Cancel Email Change');
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(location()).toBe('/forgot-password');
    });

    it('does not send the member home after a few seconds (the advice has to be read)', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      api.auth.cancelEmailChange.mockResolvedValue({ message: 'ok' });
      renderWithApp(api, { route: '/cancel-email-change?token=c2' });
      expect(await screen.findByRole('heading', { name: 'Email Change Cancelled' })).toBeInTheDocument();
      await advanceTimers(10_000);
      expect(location()).toBe('/cancel-email-change?token=c2');
    });

    it("says the link is invalid without a token, calls nobody, and offers Back to Home", async () => {
      const user = userEvent.setup();
      renderWithApp(api, { route: '/cancel-email-change' });
      expect(await screen.findByText('This cancellation link is invalid or has expired.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Cancellation Failed' })).toBeInTheDocument();
      expect(api.auth.cancelEmailChange).not.toHaveBeenCalled();
      await user.click(screen.getByRole('button', { name: 'Back to Home' }));
      expect(location()).toBe('/');
    });

    it("shows the server's reason when the token is refused", async () => {
      api.auth.cancelEmailChange.mockRejectedValue(refusal('This cancellation link is invalid or has expired.'));
      renderWithApp(api, { route: '/cancel-email-change?token=used' });
      expect(await screen.findByText('This cancellation link is invalid or has expired.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Cancellation Failed' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Back to Home' })).toBeInTheDocument();
    });

    it('falls back to its own message when the server gives no reason', async () => {
      api.auth.cancelEmailChange.mockRejectedValue(new ApiError('Bad Gateway', 502));
      renderWithApp(api, { route: '/cancel-email-change?token=t' });
      expect(await screen.findByText('Failed to cancel email change')).toBeInTheDocument();
    });

    it('works for a signed-in member too (a public page)', async () => {
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      api.auth.cancelEmailChange.mockResolvedValue({ message: 'ok' });
      renderWithApp(api, { route: '/cancel-email-change?token=t' });
      expect(await screen.findByRole('heading', { name: 'Email Change Cancelled' })).toBeInTheDocument();
      expect(location()).toBe('/cancel-email-change?token=t');
    });
  });

  describe('/forgot-password', () => {
    it("shows 'Check Your Email' with the neutral message", async () => {
      const user = userEvent.setup();
      api.auth.forgotPassword.mockResolvedValue({ message: 'ok' });
      renderWithApp(api, { route: '/forgot-password' });
      await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'someone@example.com');
      await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
      expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
      expect(
        screen.getByText("If an account exists with that email, you'll receive a password reset link shortly."),
      ).toBeInTheDocument();
      expect(api.auth.forgotPassword).toHaveBeenCalledWith('someone@example.com');
    });
  });
});

describe('/settings/account', () => {
  it('sends the change with the token from the `token` key; the button waits for an email', async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    storeSession(aUser(), 'the-token');
    api.auth.me.mockResolvedValue(aUser());
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    api.auth.requestEmailChange.mockResolvedValue({ message: 'Check your new inbox' });
    renderWithApp(api, { route: '/settings/account' });

    const submit = await screen.findByRole('button', { name: 'Change Email' });
    expect(screen.getByRole('heading', { name: 'Change Email Address' })).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'New Email Address' }), 'new@example.com');
    expect(submit).toBeEnabled();
    await user.click(submit);
    await waitFor(() =>
      expect(api.auth.requestEmailChange).toHaveBeenCalledWith({ newEmail: 'new@example.com' }, 'the-token'),
    );
    expect(await screen.findByText('Check your new inbox')).toBeInTheDocument();
  });

  it("shows the server's error as is, or 'Failed to request email change', and keeps the typed address", async () => {
    const user = userEvent.setup();
    const api = signedInApi();
    api.auth.requestEmailChange
      .mockRejectedValueOnce(new ApiError(AuthMessages.emailTaken, 409, AuthMessages.emailTaken))
      .mockRejectedValueOnce(new ApiError('Network error', 0));
    renderWithApp(api, { route: '/settings/account' });
    const field = await screen.findByRole('textbox', { name: 'New Email Address' });
    await user.type(field, 'taken@example.com');

    await user.click(screen.getByRole('button', { name: 'Change Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(AuthMessages.emailTaken);
    await user.click(screen.getByRole('button', { name: 'Change Email' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to request email change$/));
    expect(field).toHaveValue('taken@example.com');
  });
});
