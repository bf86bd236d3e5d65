import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aPhoto, aProfile, aUser, createFakeApi, type FakeApi } from '../testing/fake-api';
import { renderWithApp } from '../testing/render';

/**
 * Issue 7 item 12: the two token keys (spec 000 §3) are brought back in line at start-up, so the
 * screens that read `token` (photo upload, email change) work for a browser that kept only
 * `auth_token`, and sign-out clears all three keys.
 */
function storeOnly(key: typeof AUTH_TOKEN_KEY | typeof LEGACY_TOKEN_KEY, token = 'the-token') {
  localStorage.setItem(key, token);
  localStorage.setItem(AUTH_USER_KEY, JSON.stringify(aUser()));
}

const keys = () => ({
  auth_token: localStorage.getItem(AUTH_TOKEN_KEY),
  token: localStorage.getItem(LEGACY_TOKEN_KEY),
  auth_user: localStorage.getItem(AUTH_USER_KEY),
});

describe('the two token keys', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    api.auth.me.mockResolvedValue(aUser());
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    api.profile.getCompletion.mockResolvedValue({ percentage: 60 });
  });

  it('with only auth_token stored, start-up fills token and an email change request sends it', async () => {
    const user = userEvent.setup();
    storeOnly(AUTH_TOKEN_KEY);
    api.auth.requestEmailChange.mockResolvedValue({ message: 'Verification email sent to new address' });
    renderWithApp(api, { route: '/settings/account' });
    expect(keys()).toMatchObject({ auth_token: 'the-token', token: 'the-token' });

    await user.type(await screen.findByLabelText('New Email Address'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Change Email' }));
    await waitFor(() =>
      expect(api.auth.requestEmailChange).toHaveBeenCalledWith({ newEmail: 'new@example.com' }, 'the-token'),
    );
    expect(screen.queryByText('Not authenticated')).not.toBeInTheDocument();
  });

  it('with only auth_token stored, a photo upload sends the token', async () => {
    const user = userEvent.setup();
    storeOnly(AUTH_TOKEN_KEY);
    api.photos.list.mockResolvedValueOnce([]).mockResolvedValue([aPhoto(1)]);
    api.photos.upload.mockResolvedValueOnce({ url: aPhoto(1).url, photo: aPhoto(1) });
    renderWithApp(api, { route: '/profile' });

    const file = new File([new Uint8Array([1, 2, 3])], 'me.jpg', { type: 'image/jpeg' });
    await user.upload(await screen.findByLabelText('Upload photo'), file);
    expect(api.photos.upload).toHaveBeenCalledWith(file, expect.objectContaining({ token: 'the-token' }));
    expect(await screen.findByText('1/6 photos uploaded')).toBeInTheDocument();
  });

  it('with only token stored, start-up fills auth_token and checks that token with the server', async () => {
    storeOnly(LEGACY_TOKEN_KEY, 'older-build-token');
    renderWithApp(api, { route: '/dashboard' });
    expect(keys()).toMatchObject({ auth_token: 'older-build-token', token: 'older-build-token' });
    await waitFor(() => expect(api.auth.me).toHaveBeenCalledTimes(1));
  });

  it('when the keys disagree, auth_token (the one every other call uses) wins', async () => {
    storeOnly(AUTH_TOKEN_KEY, 'current');
    localStorage.setItem(LEGACY_TOKEN_KEY, 'stale');
    renderWithApp(api, { route: '/dashboard' });
    expect(keys()).toMatchObject({ auth_token: 'current', token: 'current' });
    await waitFor(() => expect(api.auth.me).toHaveBeenCalledTimes(1));
  });

  it('sign-out clears auth_token, token and auth_user', async () => {
    const user = userEvent.setup();
    storeOnly(AUTH_TOKEN_KEY);
    api.auth.logout.mockResolvedValue(undefined);
    renderWithApp(api, { route: '/dashboard' });
    await user.click(await screen.findByRole('button', { name: /Logout/i }));
    await waitFor(() => expect(keys()).toEqual({ auth_token: null, token: null, auth_user: null }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('leaves a signed-out browser signed out (no key is invented)', () => {
    renderWithApp(api, { route: '/' });
    expect(keys()).toEqual({ auth_token: null, token: null, auth_user: null });
    expect(api.auth.me).not.toHaveBeenCalled();
  });
});
