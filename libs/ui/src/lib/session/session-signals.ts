import { AUTH_TOKEN_KEY } from '@mate/contracts';
import { useEffect, type RefObject } from 'react';

/** The detail of the event an app's API client fires when a call made with `token` comes back 401. */
export interface UnauthorizedDetail {
  token?: string;
}

/** For the API client's `onUnauthorized`: tells the app's session a call with `token` was refused. */
export function announceUnauthorized(eventName: string, token: string | undefined): void {
  window.dispatchEvent(new CustomEvent<UnauthorizedDetail>(eventName, { detail: { token } }));
}

/**
 * Ends the session held in `currentToken` when the server refuses that token (the app's
 * `eventName`, from `announceUnauthorized`; a refusal of an older token changes nothing) or when
 * another tab signs out (its `auth_token` removed): this tab follows it.
 */
export function useSessionEndSignals(eventName: string, currentToken: RefObject<string | null>, endSession: () => void): void {
  useEffect(() => {
    const onUnauthorized = (event: Event) => {
      const refused = (event as CustomEvent<UnauthorizedDetail>).detail?.token;
      if (refused && refused === currentToken.current) endSession();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_TOKEN_KEY && !event.newValue && currentToken.current) endSession();
    };
    window.addEventListener(eventName, onUnauthorized);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(eventName, onUnauthorized);
      window.removeEventListener('storage', onStorage);
    };
  }, [eventName, currentToken, endSession]);
}

/**
 * Tells the server the session ends (`logout`, the client's call); a failed call is ignored
 * (spec 000 §4): the caller clears the local session regardless.
 */
export async function endServerSession(logout: () => Promise<unknown>): Promise<void> {
  try {
    await logout();
  } catch {
    // Ignored: the token is forgotten locally either way.
  }
}
