import type { LoginRequest, UserDto } from '@mate/contracts';
import { ROLE_ADMIN } from '@mate/contracts';
import { clearStoredAuth, endServerSession, readStoredAuth, storeCheckedUser, useSessionEndSignals, writeStoredAuth } from '@mate/ui';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';

/** Fired by the API client when a call made with the current token comes back 401. */
export const UNAUTHORIZED_EVENT = 'mate-admin:unauthorized';

/** The account signed in but is not an administrator: the app keeps no session for it. */
export class NotAdminError extends Error {
  override readonly name = 'NotAdminError';
  constructor() {
    super('This account does not have admin access.');
    Object.setPrototypeOf(this, NotAdminError.prototype);
  }
}

export interface AuthContextValue {
  user: UserDto | null;
  token: string | null;
  /** True until the stored session has been checked with the server. */
  initializing: boolean;
  isAdmin: boolean;
  /** Rethrows the server's error; a non-admin account fails with NotAdminError and is signed out. */
  login(request: LoginRequest): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

interface Session {
  user: UserDto | null;
  token: string | null;
}

export function isAdminUser(user: UserDto | null | undefined): boolean {
  return user?.role === ROLE_ADMIN;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>(() => {
    const stored = readStoredAuth();
    return stored.token ? stored : { user: null, token: null };
  });
  const [initializing, setInitializing] = useState(() => session.token !== null);
  const generation = useRef(0);
  const tokenRef = useRef(session.token);
  const started = useRef(false);

  const clearSession = useCallback(() => {
    generation.current += 1;
    tokenRef.current = null;
    clearStoredAuth();
    setSession({ user: null, token: null });
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const stored = readStoredAuth();
    if (!stored.token) return;
    const gen = generation.current;
    void (async () => {
      try {
        const me = await api.auth.me();
        if (gen !== generation.current) return;
        setSession({ user: storeCheckedUser(stored.user, me), token: stored.token });
      } catch {
        if (gen === generation.current) clearSession();
      } finally {
        setInitializing(false);
      }
    })();
  }, [api, clearSession]);

  // A refused token, or another tab's sign-out, ends this session.
  useSessionEndSignals(UNAUTHORIZED_EVENT, tokenRef, clearSession);

  const login = useCallback(
    async (request: LoginRequest) => {
      const { token, user } = await api.auth.login(request);
      generation.current += 1;
      if (!isAdminUser(user)) {
        // End the session the server just made: this app keeps none for a member.
        writeStoredAuth(token, user);
        await endServerSession(() => api.auth.logout());
        clearStoredAuth();
        throw new NotAdminError();
      }
      tokenRef.current = token;
      writeStoredAuth(token, user);
      queryClient.clear();
      setSession({ user, token });
    },
    [api, queryClient],
  );

  const logout = useCallback(async () => {
    await endServerSession(() => api.auth.logout());
    clearSession();
  }, [api, clearSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user: session.user,
      token: session.token,
      initializing,
      isAdmin: isAdminUser(session.user),
      login,
      logout,
    }),
    [session, initializing, login, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
