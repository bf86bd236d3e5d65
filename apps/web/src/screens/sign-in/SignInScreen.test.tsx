import { ApiError } from '@mate/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aProfile, aUser, anAuthResponse, createFakeApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { buildSignUpPayload } from './sign-up-payload';

describe('buildSignUpPayload', () => {
  it('omits name and age when empty', () => {
    const payload = buildSignUpPayload({ email: ' ada@example.com ', password: 'password1', name: '  ', age: '' });
    expect(payload).toEqual({ email: 'ada@example.com', password: 'password1' });
    expect('age' in payload).toBe(false);
    expect('name' in payload).toBe(false);
  });

  it('parses age in base 10', () => {
    expect(buildSignUpPayload({ email: 'a@b.co', password: 'password1', name: 'Ada', age: '021' })).toEqual({
      email: 'a@b.co',
      password: 'password1',
      name: 'Ada',
      age: 21,
    });
  });
});

describe('SignInScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
  });

  it('signs up without an age when the field is left empty', async () => {
    const user = userEvent.setup();
    api.auth.register.mockResolvedValue(anAuthResponse(aUser()));
    api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false, onboardingCompleted: false }));
    renderWithApp(api, { route: '/' });

    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    expect(screen.getByText('Minimum 8 characters')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(api.auth.register).toHaveBeenCalledTimes(1));
    const payload = api.auth.register.mock.calls[0][0];
    expect(payload).toEqual({ email: 'ada@example.com', password: 'password1' });
    expect(Object.keys(payload)).not.toContain('age');
    // Signed up and unverified: on to the prompt.
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/verify-email-prompt'));
  });

  it('sends name and a base-10 age when given', async () => {
    const user = userEvent.setup();
    api.auth.register.mockResolvedValue(anAuthResponse(aUser()));
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    renderWithApp(api, { route: '/' });

    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByRole('spinbutton', { name: 'Age' }), '34');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() =>
      expect(api.auth.register).toHaveBeenCalledWith({
        email: 'ada@example.com',
        password: 'password1',
        name: 'Ada',
        age: 34,
      }),
    );
  });

  it('shows the server error in a red banner, and toggling clears it', async () => {
    const user = userEvent.setup();
    api.auth.login.mockRejectedValue(new ApiError('Invalid email or password', 401, 'Invalid email or password'));
    renderWithApp(api, { route: '/' });

    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Invalid email or password');
    expect(banner).toHaveClass('mate-alert--error');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I already have an account' }));
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });
});
