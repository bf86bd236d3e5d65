import type { AuthResponse, LoginRequest, ProfileDto, RegisterRequest, UserDto } from '@mate/contracts';
import { isApiError, type MateApi } from '@mate/api-client';
import { ROLE_ADMIN } from '@mate/contracts';
import { alignStoredTokens, clearStoredAuth, endServerSession, readStoredAuth, storeCheckedUser, useSessionEndSignals, writeStoredAuth } from '@mate/ui';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import { fetchWithOneRetry } from './profile-retry';

/** Fired by the API client when a call made with the current token comes back 401. */
export const UNAUTHORIZED_EVENT = 'mate:unauthorized';

export type ProfileStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface AuthContextValue {
  user: UserDto | null;
  token: string | null;
  profile: ProfileDto | null;
  profileStatus: ProfileStatus;
  /** True until the stored session has been checked with the server (spec 000 §4). */
  initializing: boolean;
  isAdmin: boolean;
  /** Rethrows the server's error (spec 000 §8). */
  login(request: LoginRequest): Promise<void>;
  register(request: RegisterRequest): Promise<void>;
  /** Tells the server, ignores a failure, always clears the local session. */
  logout(): Promise<void>;
  /** Fetches the profile (one retry after 1 s); a second failure is thrown. */
  refreshProfile(): Promise<ProfileDto>;
  /** Forgets the local session without calling the server (e.g. after email verification). */
  clearSession(): void;
  /** Where the signed-out guard sends the member: `/`, or what `leaveTo` chose for this sign-out. */
  signedOutPath: string;
  /**
   * The next sign-out, whoever ends the session (this screen, the realtime channel, a refused call),
   * lands on `path`; `null` takes the choice back. Account deletion uses it for /login (spec 001 §4).
   */
  leaveTo(path: string | null): void;
  /** Applies a known change to the profile held in memory (a patch, or one made from the current profile). */
  updateProfile(patch: Partial<ProfileDto> | ((current: ProfileDto) => Partial<ProfileDto>)): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

interface Session {
  user: UserDto | null;
  token: string | null;
  /** Signed out: where the guard sends the member (`/` unless `leaveTo` chose otherwise). */
  signedOutPath?: string;
}

/**
 * The start-up check's two calls, made by main.tsx as soon as the code has run, before React draws
 * anything (issue 26: the first render on a phone is a few hundred milliseconds the calls need
 * not wait for). Each rejection is handled where it is used.
 */
export interface StartupRequests {
  me: Promise<UserDto>;
  profile: Promise<ProfileDto>;
}

/** The session check's two calls, side by side: the profile's answer counts only if the check passes. */
function sessionCheck(api: MateApi): StartupRequests {
  const requests = { me: api.auth.me(), profile: api.profile.getMyProfile() };
  requests.me.catch(() => undefined);
  requests.profile.catch(() => undefined);
  return requests;
}

/** The start-up calls for a stored session, or null without one. */
export function startupRequests(api: MateApi): StartupRequests | null {
  return readStoredAuth().token ? sessionCheck(api) : null;
}

export function AuthProvider({ children, startup = null }: { children: ReactNode; startup?: StartupRequests | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>(() => {
    // Before any screen can read either key.
    alignStoredTokens();
    const stored = readStoredAuth();
    return stored.token ? stored : { user: null, token: null };
  });
  const [profile, setProfile] = useState<ProfileDto | null>(null);
  const [profileStatus, setProfileStatus] = useState<ProfileStatus>('idle');
  // Nothing to check without a stored token: signed-out visitors see the sign-in screen at once.
  const [initializing, setInitializing] = useState(() => session.token !== null);
  // Bumped on every sign-in and sign-out, so a late answer for an old session changes nothing.
  const generation = useRef(0);
  const tokenRef = useRef(session.token);
  const started = useRef(false);
  const exitPath = useRef<string | null>(null);

  const loadProfile = useCallback(
    async (mode: 'init' | 'refresh', firstAttempt?: Promise<ProfileDto>): Promise<ProfileDto | null> => {
      const gen = generation.current;
      setProfileStatus('loading');
      let early = firstAttempt;
      const fetchProfile = () => {
        const attempt = early ?? api.profile.getMyProfile();
        early = undefined;
        return attempt;
      };
      try {
        const next = await fetchWithOneRetry(fetchProfile);
        if (gen === generation.current) {
          setProfile(next);
          setProfileStatus('ready');
        }
        return next;
      } catch (error) {
        if (gen === generation.current) setProfileStatus('error');
        if (mode === 'refresh') throw error;
        // Spec 000 §4: during initialisation a second failure is only logged.
        console.error('Failed to load profile', error);
        return null;
      }
    },
    [api],
  );

  const clearSession = useCallback(() => {
    generation.current += 1;
    tokenRef.current = null;
    clearStoredAuth();
    // Part of the signed-out session itself: the guard never sees one without the other.
    setSession({ user: null, token: null, signedOutPath: exitPath.current ?? '/' });
    setProfile(null);
    setProfileStatus('idle');
    queryClient.clear();
  }, [queryClient]);

  const leaveTo = useCallback((path: string | null) => {
    exitPath.current = path;
  }, []);

  const startSession = useCallback(
    async ({ token, user }: AuthResponse) => {
      generation.current += 1;
      tokenRef.current = token;
      exitPath.current = null;
      writeStoredAuth(token, user);
      queryClient.clear();
      setSession({ user, token });
      setProfile(null);
      await loadProfile('init');
    },
    [loadProfile, queryClient],
  );

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const stored = readStoredAuth();
      if (!stored.token) {
        clearStoredAuth();
        setInitializing(false);
        return;
      }
      const gen = generation.current;
      // The profile is asked for beside the token check, not after it: one round trip less before
      // the first screen (issue 26). Its answer counts only if the check passes.
      const requests = startup ?? sessionCheck(api);
      try {
        const me = await requests.me;
        // Signed out (or in again) while asking: that newer state wins, and start-up is over.
        if (gen !== generation.current) {
          setInitializing(false);
          return;
        }
        setSession({ user: storeCheckedUser(stored.user, me), token: stored.token });
      } catch (error) {
        // Opened without a network (issue 26: the app opens offline), the check got no answer at
        // all: the stored session stands, and the member's unsent messages with it. Only the
        // server's refusal ends it.
        const unanswered = isApiError(error) && error.status === 0 && stored.user !== null;
        if (!unanswered || gen !== generation.current) {
          if (gen === generation.current) clearSession();
          setInitializing(false);
          return;
        }
        setSession({ user: stored.user, token: stored.token });
      }
      await loadProfile('init', requests.profile);
      setInitializing(false);
    })();
  }, [api, clearSession, loadProfile, startup]);

  // A refused token, or another tab's sign-out, ends this session.
  useSessionEndSignals(UNAUTHORIZED_EVENT, tokenRef, clearSession);

  const login = useCallback(
    async (request: LoginRequest) => startSession(await api.auth.login(request)),
    [api, startSession],
  );

  const register = useCallback(
    async (request: RegisterRequest) => startSession(await api.auth.register(request)),
    [api, startSession],
  );

  const logout = useCallback(async () => {
    await endServerSession(() => api.auth.logout());
    clearSession();
  }, [api, clearSession]);

  const refreshProfile = useCallback(async () => (await loadProfile('refresh')) as ProfileDto, [loadProfile]);

  const updateProfile = useCallback((patch: Partial<ProfileDto> | ((current: ProfileDto) => Partial<ProfileDto>)) => {
    setProfile((current) => (current ? { ...current, ...(typeof patch === 'function' ? patch(current) : patch) } : current));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user: session.user,
      token: session.token,
      profile,
      profileStatus,
      initializing,
      isAdmin: session.user?.role === ROLE_ADMIN,
      login,
      register,
      logout,
      refreshProfile,
      clearSession,
      signedOutPath: session.signedOutPath ?? '/',
      leaveTo,
      updateProfile,
    }),
    [
      session,
      profile,
      profileStatus,
      initializing,
      login,
      register,
      logout,
      refreshProfile,
      clearSession,
      leaveTo,
      updateProfile,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
