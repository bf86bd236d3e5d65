import type { ChatEntry } from '@mate/api-client';
import { Button, Spinner } from '@mate/ui';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { MessageBubble } from './MessageBubble';

/** Within this many pixels of an edge counts as at it (rounding, a last line half shown). */
const EDGE_PX = 48;

export interface MessageListProps {
  label: string;
  entries: readonly ChatEntry[];
  hasOlder: boolean;
  onLoadOlder: () => Promise<void>;
  onRetry: (clientId: string) => void;
  /** Shown when there is no message. */
  empty: ReactNode;
}

/** A stable React key: an own message keeps its clientId from 'sending' to stored, so it is not redrawn. */
const entryKey = (entry: ChatEntry) => (entry.mine && entry.clientId ? `c:${entry.clientId}` : entry.key);

/**
 * The conversation (spec 000 §2): a log that screen readers follow politely. It opens at the
 * newest message and follows new ones while the member is at the bottom (and always after their
 * own send), also when the log gets shorter (a phone's keyboard); scrolled up, it stays where they
 * read. Reaching the top loads older messages and keeps the reading position.
 */
export function MessageList({ label, entries, hasOlder, onLoadOlder, onRetry, empty }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const keep = useRef<{ height: number; top: number; firstKey: string | undefined } | null>(null);
  const lastSeen = useRef<string | undefined>(undefined);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderFailed, setOlderFailed] = useState(false);

  const loadOlder = useCallback(async () => {
    const element = scrollRef.current;
    if (!element || !hasOlder || keep.current) return;
    keep.current = { height: element.scrollHeight, top: element.scrollTop, firstKey: entries[0]?.key };
    setLoadingOlder(true);
    try {
      await onLoadOlder();
      setOlderFailed(false);
    } catch {
      setOlderFailed(true);
    } finally {
      setLoadingOlder(false);
      // Nothing older came (an error, or the same page): nothing to keep steady.
      if (keep.current && keep.current.firstKey === entries[0]?.key) keep.current = null;
    }
  }, [hasOlder, onLoadOlder, entries]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const last = entries[entries.length - 1];
    const kept = keep.current;
    if (kept && kept.firstKey !== entries[0]?.key) {
      // Older messages went in above: the message being read stays where it was.
      element.scrollTop = element.scrollHeight - kept.height + kept.top;
      keep.current = null;
    } else if (last && entryKey(last) !== lastSeen.current && (atBottom.current || last.mine)) {
      element.scrollTop = element.scrollHeight;
      atBottom.current = true;
    }
    lastSeen.current = last ? entryKey(last) : undefined;
  }, [entries]);

  // The log gets shorter when a phone's keyboard comes up (the window shrinks) or the composer grows:
  // a member at the newest message keeps it in view instead of seeing it slide under the composer.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < EDGE_PX;
    if (element.scrollTop < EDGE_PX && hasOlder && !loadingOlder && !olderFailed) void loadOlder();
  };

  return (
    <div
      ref={scrollRef}
      className="chat-log"
      role="log"
      aria-live="polite"
      aria-label={label}
      aria-busy={loadingOlder || undefined}
      // Keyboard users scroll the conversation with the arrow keys.
      tabIndex={0}
      onScroll={onScroll}
    >
      {hasOlder && (
        <div className="chat-log__older">
          {loadingOlder ? (
            <Spinner size="sm" label="Loading older messages..." />
          ) : (
            <Button variant="ghost" onClick={() => void loadOlder()}>
              {olderFailed ? 'Could not load older messages. Try again' : 'Load older messages'}
            </Button>
          )}
        </div>
      )}
      {entries.length === 0 ? (
        empty
      ) : (
        <ol className="chat-log__list">
          {entries.map((entry) => (
            <MessageBubble key={entryKey(entry)} entry={entry} onRetry={onRetry} />
          ))}
        </ol>
      )}
    </div>
  );
}
