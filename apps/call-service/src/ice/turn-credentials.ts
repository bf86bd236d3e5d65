import { createHmac } from 'node:crypto';

export interface TurnCredentials {
  username: string;
  credential: string;
  /** When coturn stops accepting them. */
  expiresAt: Date;
}

/**
 * Time-limited TURN credentials of the coturn REST scheme ("TURN REST API", coturn's
 * `use-auth-secret` + `static-auth-secret`): username = `<expiry unix seconds>:<userId>`,
 * credential = base64(HMAC-SHA1(secret, username)). coturn recomputes the credential from the
 * username and refuses it once the expiry has passed; nothing is stored.
 */
export function turnCredentials(
  secret: string,
  userId: string,
  now: Date,
  ttlSeconds: number,
): TurnCredentials {
  const expiry = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const username = `${expiry}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential, expiresAt: new Date(expiry * 1000) };
}

/** `a, b,,c` → ['a', 'b', 'c']. */
export function splitUrls(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u.length > 0);
}
