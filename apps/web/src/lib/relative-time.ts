import { DAY, HOUR, MINUTE } from '@mate/contracts';

const WEEK = 7 * DAY;

function elapsed(date: Date | string | number, now: number): number {
  const at = new Date(date).getTime();
  // A clock that runs a little ahead on the server is still "just now".
  return Math.max(0, now - at);
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

function isValid(date: Date | string | number): boolean {
  return !Number.isNaN(new Date(date).getTime());
}

/**
 * Session last activity (spec 001 §2, §9): 'Just now' under a minute, then minutes, hours or
 * days ago, then the date from 7 days on.
 */
export function formatSessionActivity(date: Date | string | number, now: number = Date.now()): string {
  if (!isValid(date)) return 'Unknown';
  const diff = elapsed(date, now);
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return plural(Math.floor(diff / HOUR), 'hour');
  if (diff < WEEK) return plural(Math.floor(diff / DAY), 'day');
  return new Date(date).toLocaleDateString();
}

/**
 * Last-message time of the conversation list (spec 000 §5): 'Just now', 'Nm ago', 'Nh ago',
 * 'Nd ago', then a date.
 */
export function formatMessageTime(date: Date | string | number, now: number = Date.now()): string {
  if (!isValid(date)) return '';
  const diff = elapsed(date, now);
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  if (diff < WEEK) return `${Math.floor(diff / DAY)}d ago`;
  return new Date(date).toLocaleDateString();
}

/** An absolute timestamp for "Signed in …". */
export function formatTimestamp(date: Date | string | number): string {
  if (!isValid(date)) return 'Unknown';
  return new Date(date).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
