import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY, type UserDto } from '@mate/contracts';

/**
 * The admin app's copy of the session, in its own origin's storage (spec 001 §3): the token under
 * `auth_token` (and `token`), the user record with its role under `auth_user`.
 */
export interface StoredAuth {
  token: string | null;
  user: UserDto | null;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readStoredToken(): string | null {
  const store = storage();
  return store?.getItem(AUTH_TOKEN_KEY) || store?.getItem(LEGACY_TOKEN_KEY) || null;
}

export function readStoredAuth(): StoredAuth {
  const raw = storage()?.getItem(AUTH_USER_KEY);
  let user: UserDto | null = null;
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      user = parsed && typeof parsed === 'object' ? (parsed as UserDto) : null;
    } catch {
      user = null;
    }
  }
  return { token: readStoredToken(), user };
}

export function writeStoredAuth(token: string, user: UserDto): void {
  const store = storage();
  if (!store) return;
  store.setItem(AUTH_TOKEN_KEY, token);
  store.setItem(LEGACY_TOKEN_KEY, token);
  store.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

export function writeStoredUser(user: UserDto): void {
  storage()?.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

export function clearStoredAuth(): void {
  const store = storage();
  if (!store) return;
  store.removeItem(AUTH_TOKEN_KEY);
  store.removeItem(LEGACY_TOKEN_KEY);
  store.removeItem(AUTH_USER_KEY);
}
