import { AUTH_TOKEN_KEY } from '@mate/contracts';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInAdminApi } from '../testing/fake-api';
import { renderAdmin } from '../testing/render';
import { UNAUTHORIZED_EVENT } from './AuthContext';

describe('AuthProvider', () => {
  it('signs out when a call made with the current token is refused (401), and ignores an old token', async () => {
    const api = signedInAdminApi();
    api.admin.getStats.mockReturnValue(new Promise(() => undefined));
    api.admin.getReports.mockReturnValue(new Promise(() => undefined));
    renderAdmin(api, { route: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();

    act(() => {
      window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'an-older-token' } }));
    });
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();

    act(() => {
      window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'tok-admin' } }));
    });
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });
});
