import {
  CHAT_MESSAGE_MAX_LENGTH,
  ChatMessages,
  messageLength,
  normalizeMessageContent,
} from '@mate/contracts';
import { Button, Icon } from '@mate/ui';
import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';

/** The counter shows from 90 % of the limit on. */
const COUNTER_FROM = Math.floor(CHAT_MESSAGE_MAX_LENGTH * 0.9);
const formatCount = (n: number) => n.toLocaleString('en-US');

export interface MessageComposerProps {
  /** Hands over the text; throws with a message to show when it cannot go. */
  onSend: (content: string) => void;
  /** Each keystroke (the engine turns them into typing / stop_typing). */
  onTyping: () => void;
  /**
   * A text to put into the input (a conversation starter, issue 25), replacing the draft, with the
   * focus in the input after it. A new object each time, so the same text can be put in again.
   */
  prefill?: { text: string } | null;
}

/**
 * The message input (spec 000 §2, §4, §9): Enter sends, Shift+Enter starts a new line; only a
 * message that is not empty once trimmed goes, trimmed, at most 2,000 characters, with a counter
 * near the limit.
 */
export const MessageComposer = forwardRef<HTMLTextAreaElement, MessageComposerProps>(function MessageComposer(
  { onSend, onTyping, prefill = null },
  ref,
) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [placed, setPlaced] = useState(prefill);
  if (prefill !== placed) {
    setPlaced(prefill);
    if (prefill) {
      setDraft(prefill.text);
      setError(null);
    }
  }
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const setInputRef = useCallback(
    (node: HTMLTextAreaElement | null) => {
      inputRef.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  useEffect(() => {
    const input = inputRef.current;
    if (!prefill || !input) return;
    // The caret goes after the text, ready for the member to go on writing or press Enter.
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [prefill]);
  const counterId = useId();
  const errorId = useId();
  const length = messageLength(normalizeMessageContent(draft));
  const tooLong = length > CHAT_MESSAGE_MAX_LENGTH;
  const canSend = length > 0 && !tooLong;

  const send = () => {
    if (!canSend) return;
    try {
      onSend(draft);
      setDraft('');
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : ChatMessages.emptyMessage);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An input method composing a word uses Enter to confirm it.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const describedBy = [length >= COUNTER_FROM ? counterId : null, error || tooLong ? errorId : null]
    .filter(Boolean)
    .join(' ');

  return (
    <form className="chat-composer" onSubmit={onSubmit}>
      <div className="chat-composer__field">
        <textarea
          ref={setInputRef}
          className="mate-input chat-composer__input"
          aria-label="Message"
          placeholder="Type a message..."
          rows={1}
          value={draft}
          aria-invalid={tooLong || undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
            if (event.target.value.trim()) onTyping();
          }}
          onKeyDown={onKeyDown}
        />
        {length >= COUNTER_FROM && (
          <span
            id={counterId}
            className={tooLong ? 'chat-composer__counter is-over' : 'chat-composer__counter'}
          >
            {formatCount(length)} / {formatCount(CHAT_MESSAGE_MAX_LENGTH)}
          </span>
        )}
      </div>
      <Button
        type="submit"
        className="chat-composer__send"
        aria-label="Send message"
        disabled={!canSend}
        icon={<Icon name="arrow-right" size={20} />}
      />
      {(error || tooLong) && (
        <p id={errorId} role="alert" className="chat-composer__error">
          {error ?? ChatMessages.tooLong}
        </p>
      )}
    </form>
  );
});
