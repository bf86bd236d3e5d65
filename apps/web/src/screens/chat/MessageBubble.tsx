import type { ChatEntry } from '@mate/api-client';
import { ChatTexts } from '@mate/contracts';
import { Icon } from '@mate/ui';
import { memo } from 'react';

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** The time on a message: the hour today, the date and hour before. */
export function messageClock(createdAt: string, now: Date = new Date()): string {
  const at = new Date(createdAt);
  if (Number.isNaN(at.getTime())) return '';
  return sameDay(at, now)
    ? at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function OwnStatus({ entry, onRetry }: { entry: ChatEntry; onRetry: (clientId: string) => void }) {
  switch (entry.status) {
    case 'read':
      return <span className="chat-bubble__status chat-bubble__status--read">{ChatTexts.read}</span>;
    case 'sent':
      return <span className="chat-bubble__status">{ChatTexts.sent}</span>;
    case 'pending':
      return (
        <span className="chat-bubble__status chat-bubble__status--pending">
          <Icon name="clock" size={12} />
          Sending...
        </span>
      );
    case 'failed':
      return (
        <span className="chat-bubble__status chat-bubble__status--failed">
          <Icon name="alert" size={12} />
          <span>Not sent: {entry.error ?? 'the message was refused'}</span>
          {entry.clientId && (
            <button
              type="button"
              className="chat-bubble__retry"
              onClick={() => onRetry(entry.clientId as string)}
            >
              Retry
            </button>
          )}
        </span>
      );
  }
}

/**
 * One message: own ones on the right with their state ('✓ Sent', '✓✓ Read', sending, failed with
 * Retry), the other member's on the left. The content is a text node, never HTML; CSS keeps its
 * line breaks and wraps long words.
 */
export const MessageBubble = memo(function MessageBubble({
  entry,
  onRetry,
}: {
  entry: ChatEntry;
  onRetry: (clientId: string) => void;
}) {
  return (
    <li
      className={entry.mine ? 'chat-bubble chat-bubble--mine' : 'chat-bubble chat-bubble--theirs'}
      data-status={entry.status}
    >
      <p className="chat-bubble__text">{entry.content}</p>
      <p className="chat-bubble__meta">
        <time dateTime={entry.createdAt}>{messageClock(entry.createdAt)}</time>
        {entry.mine && <OwnStatus entry={entry} onRetry={onRetry} />}
      </p>
    </li>
  );
});
