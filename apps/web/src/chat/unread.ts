/** 'N unread messages', the accessible name of an unread badge. */
export function unreadLabel(count: number): string {
  return `${count} unread message${count === 1 ? '' : 's'}`;
}

/** What an unread badge shows: the count, capped so it stays a badge. */
export function unreadBadgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
