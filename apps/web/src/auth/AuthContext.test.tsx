import { ApiError, type MateApi } from '@mate/api-client';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../api/ApiContext';
import { aProfile, aUser, anAuthResponse, createFakeApi, storeSession, type FakeApi } from '../testing/fake-api';
import { AuthProvider, startupRequests, UNAUTHORIZED_EVENT, useAuth, type AuthContextValue, type StartupRequests } from './AuthContext';

let auth: AuthContextValue;
function Probe() {
  auth = useAuth();
  return null;
}

function mount(api: FakeApi, startup: StartupRequests | null = null) {
  return render(
    <ApiProvider client={api as unknown as MateApi}>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider startup={startup}>
          <Probe />
        </AuthProvider>
      </QueryClientProvider>
    </ApiProvider>,
  );
}

/** Lets pending promises and the state updates they cause settle. */
async function settle() {
  await act(async () => {
    await Promise.resolve();
  });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('AuthProvider', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('start-up', () => {
    it('is signed out at once without a stored token, and calls nobody', async () => {
      mount(api);
      await settle();
      expect(auth.initializing).toBe(false);
      expect(auth.user).toBeNull();
      expect(api.auth.me).not.toHaveBeenCalled();
    });

    it('asks for the profile beside the token check, not after it, and uses that one answer (issue 26)', async () => {
      storeSession();
      let answer: (value: unknown) => void = () => undefined;
      api.auth.me.mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      mount(api);
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
      expect(auth.profile).toBeNull();
      answer(aUser());
      await settle();
      expect(auth.initializing).toBe(false);
      expect(auth.profile?.isVerified).toBe(true);
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
    });

    it('uses the start-up calls main.tsx made before the first render, and makes none of its own (issue 26)', async () => {
      expect(startupRequests(api as unknown as MateApi)).toBeNull();
      expect(api.auth.me).not.toHaveBeenCalled();
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      const startup = startupRequests(api as unknown as MateApi);
      expect(api.auth.me).toHaveBeenCalledTimes(1);
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
      mount(api, startup);
      await settle();
      expect(auth.initializing).toBe(false);
      expect(auth.user?.email).toBe('ada@example.com');
      expect(auth.profile?.isVerified).toBe(true);
      expect(api.auth.me).toHaveBeenCalledTimes(1);
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
    });

    it('checks a stored token with the server, keeps the stored role, then loads the profile', async () => {
      storeSession(aUser({ role: 'admin' }));
      api.auth.me.mockResolvedValue({ ...aUser(), role: undefined } as never);
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      mount(api);
      expect(auth.initializing).toBe(true);
      await settle();
      expect(auth.initializing).toBe(false);
      expect(auth.user?.email).toBe('ada@example.com');
      expect(auth.isAdmin).toBe(true);
      expect(auth.profile?.isVerified).toBe(true);
      expect(JSON.parse(localStorage.getItem(AUTH_USER_KEY) as string)).toMatchObject({ role: 'admin' });
    });

    it('clears the stored session when the server refuses the token', async () => {
      storeSession();
      api.auth.me.mockRejectedValue(new ApiError('Your session has expired. Please sign in again.', 401));
      mount(api);
      await settle();
      expect(auth.user).toBeNull();
      expect(auth.token).toBeNull();
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(AUTH_USER_KEY)).toBeNull();
      // The profile was asked for beside the check (one round trip less); its answer is not kept.
      expect(auth.profile).toBeNull();
    });

    it('keeps the stored session when the check gets no answer (opened offline), and says the profile could not load', async () => {
      storeSession(aUser());
      api.auth.me.mockRejectedValue(new ApiError('An error occurred', 0));
      api.profile.getMyProfile.mockRejectedValue(new ApiError('Failed to load profile', 0));
      mount(api);
      await settle();
      // The profile is asked for twice, 1 s apart (spec 000 §4).
      await vi.waitFor(() => expect(auth.profileStatus).toBe('error'), { timeout: 4000 });
      expect(auth.initializing).toBe(false);
      expect(auth.user?.email).toBe('ada@example.com');
      expect(auth.token).not.toBeNull();
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).not.toBeNull();
    });

    it('finishes start-up when the session is cleared while the token is being checked (email verified meanwhile)', async () => {
      storeSession();
      let answer: (value: unknown) => void = () => undefined;
      api.auth.me.mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
      mount(api);
      expect(auth.initializing).toBe(true);
      act(() => auth.clearSession());
      answer(aUser());
      await settle();
      expect(auth.initializing).toBe(false);
      expect(auth.user).toBeNull();
      expect(auth.profile).toBeNull();
    });
  });

  describe('login and register', () => {
    it('stores the token under both keys and the user (with role) under auth_user, then fetches the profile', async () => {
      api.auth.login.mockResolvedValue(anAuthResponse(aUser({ role: 'admin' }), 'fresh-jwt'));
      api.profile.getMyProfile.mockResolvedValue(aProfile({ onboardingCompleted: false }));
      mount(api);
      await settle();
      await act(() => auth.login({ email: 'ada@example.com', password: 'password1' }));
      expect(api.auth.login).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'password1' });
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('fresh-jwt');
      expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBe('fresh-jwt');
      expect(JSON.parse(localStorage.getItem(AUTH_USER_KEY) as string)).toMatchObject({
        email: 'ada@example.com',
        role: 'admin',
      });
      expect(auth.token).toBe('fresh-jwt');
      expect(auth.profile?.onboardingCompleted).toBe(false);
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
    });

    it('does the same for register', async () => {
      api.auth.register.mockResolvedValue(anAuthResponse(aUser(), 'reg-jwt'));
      api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false }));
      mount(api);
      await settle();
      await act(() => auth.register({ email: 'ada@example.com', password: 'password1' }));
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('reg-jwt');
      expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBe('reg-jwt');
      expect(auth.profile?.isVerified).toBe(false);
    });

    it("rethrows the server's error and stores nothing", async () => {
      api.auth.login.mockRejectedValue(new ApiError('Invalid email or password', 401));
      mount(api);
      await settle();
      await expect(act(() => auth.login({ email: 'a@b.co', password: 'wrongpass' }))).rejects.toThrow(
        'Invalid email or password',
      );
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      expect(auth.user).toBeNull();
    });
  });

  describe('logout', () => {
    it('clears token, user and profile even when the server call fails', async () => {
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      api.auth.logout.mockRejectedValue(new ApiError('Service Unavailable', 503));
      mount(api);
      await settle();
      expect(auth.user).not.toBeNull();
      await act(() => auth.logout());
      expect(api.auth.logout).toHaveBeenCalledTimes(1);
      expect(auth.user).toBeNull();
      expect(auth.token).toBeNull();
      expect(auth.profile).toBeNull();
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
      expect(localStorage.getItem(AUTH_USER_KEY)).toBeNull();
    });

    it('clears when the server succeeds too', async () => {
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValue(aProfile());
      api.auth.logout.mockResolvedValue(undefined);
      mount(api);
      await settle();
      await act(() => auth.logout());
      expect(auth.user).toBeNull();
      expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    });
  });

  describe('profile fetch retry (one retry after 1 s)', () => {
    it('retries once, exactly 1 s after the first failure', async () => {
      vi.useFakeTimers();
      api.auth.login.mockResolvedValue(anAuthResponse());
      api.profile.getMyProfile
        .mockRejectedValueOnce(new ApiError('Failed to get profile', 502))
        .mockResolvedValueOnce(aProfile({ name: 'Second try' }));
      mount(api);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });

      let done = false;
      act(() => {
        void auth.login({ email: 'ada@example.com', password: 'password1' }).then(() => (done = true));
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);

      await act(async () => {
        await vi.advanceTimersByTimeAsync(999);
      });
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(1);
      expect(done).toBe(false);

      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(2);
      expect(done).toBe(true);
      expect(auth.profile?.name).toBe('Second try');
    });

    it('during initialisation a second failure is only logged', async () => {
      vi.useFakeTimers();
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockRejectedValue(new ApiError('Failed to get profile', 502));
      mount(api);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(2);
      expect(auth.initializing).toBe(false);
      expect(auth.user).not.toBeNull();
      expect(auth.profile).toBeNull();
      expect(auth.profileStatus).toBe('error');
      expect(console.error).toHaveBeenCalledWith('Failed to load profile', expect.any(ApiError));
    });

    it('during an explicit refresh the second failure is thrown', async () => {
      vi.useFakeTimers();
      storeSession();
      api.auth.me.mockResolvedValue(aUser());
      api.profile.getMyProfile.mockResolvedValueOnce(aProfile());
      mount(api);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(auth.profile).not.toBeNull();

      api.profile.getMyProfile.mockRejectedValue(new ApiError('Failed to get profile', 502));
      let thrown: unknown;
      act(() => {
        auth.refreshProfile().catch((error: unknown) => (thrown = error));
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
      expect(api.profile.getMyProfile).toHaveBeenCalledTimes(3);
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).message).toBe('Failed to get profile');
    });
  });

  it('signs out when the server refuses the current token on any call', async () => {
    storeSession(aUser(), 'stored-token');
    api.auth.me.mockResolvedValue(aUser());
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    mount(api);
    await settle();
    act(() => {
      window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'some-older-token' } }));
    });
    expect(auth.user).not.toBeNull();
    act(() => {
      window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'stored-token' } }));
    });
    expect(auth.user).toBeNull();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });
});
