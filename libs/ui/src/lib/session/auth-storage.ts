import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY, type UserDto } from '@mate/contracts';

/**
 * The browser copy of a session, in the app's own origin's storage (spec 000 §3, 001 §3): the
 * token under `auth_token` and, for the screens that read the second key, under `token` as well
 * (always equal); the user under `auth_user` as JSON, role included. Both apps keep theirs here.
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

/** The second key, which photo uploads and the email-change call use (spec 000 §3, 001 §7). */
export function readLegacyToken(): string | null {
  return storage()?.getItem(LEGACY_TOKEN_KEY) || null;
}

/**
 * Start-up: brings the two token keys back in line (issue 7 item 12). A browser may hold only one
 * of them (an older build, a key cleared by hand); the screens that read `token` would then fail
 * with 'Not authenticated' while the member is signed in. Whichever key exists fills the other;
 * when both exist and differ, `auth_token` wins, since it is the token the start-up check and
 * every other call use. Nothing to do when neither key holds one.
 */
export function alignStoredTokens(): void {
  const store = storage();
  const token = readStoredToken();
  if (!store || !token) return;
  if (store.getItem(AUTH_TOKEN_KEY) !== token) store.setItem(AUTH_TOKEN_KEY, token);
  if (store.getItem(LEGACY_TOKEN_KEY) !== token) store.setItem(LEGACY_TOKEN_KEY, token);
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

/**
 * The user after the start-up check: the server's answer over the stored record, so the stored
 * record keeps the role even if this server's answer leaves it out. Written back to storage.
 */
export function storeCheckedUser(stored: UserDto | null, me: UserDto): UserDto {
  const known = Object.fromEntries(Object.entries(me).filter(([, value]) => value !== undefined));
  const user = { ...(stored ?? {}), ...known } as UserDto;
  writeStoredUser(user);
  return user;
}
