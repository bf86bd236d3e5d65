import { unreadBadgeText, unreadLabel } from './unread';

/** A count bubble: the number for the eye, 'N unread messages' for screen readers. */
export function UnreadBadge({ count, className }: { count: number; className: string }) {
  if (count <= 0) return null;
  return (
    <>
      {/* Its own word in the accessible name of the link around it ('Messages 2 unread messages'). */}{' '}
      <span className={className}>
        <span aria-hidden="true">{unreadBadgeText(count)}</span>
        <span className="mate-visually-hidden">{unreadLabel(count)}</span>
      </span>
    </>
  );
}
