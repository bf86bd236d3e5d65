import { NOTIFICATION_PROMPT_DELAY_MS } from '@mate/contracts';
import { Alert, Button, Icon } from '@mate/ui';
import { useEffect, useId, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { usePush } from './PushContext';

/**
 * Screens the prompt never covers: a member finishing onboarding or in a call is busy with
 * something else (and the card would sit over the onboarding's Next button). It waits, and opens
 * once the member is elsewhere.
 */
export const PROMPT_QUIET_ROUTES = ['/onboarding', '/call'] as const;

const isQuiet = (pathname: string) => PROMPT_QUIET_ROUTES.some((route) => pathname === route || pathname.startsWith(`${route}/`));

/** Spec 001 §3: the dismissal is remembered locally (the key is ours). */
export const PROMPT_DISMISSED_KEY = 'notification_prompt_dismissed';

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(PROMPT_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberDismissal(): void {
  try {
    window.localStorage.setItem(PROMPT_DISMISSED_KEY, 'true');
  } catch {
    // Storage refused (private mode): the prompt simply comes back next time.
  }
}

/**
 * On <body> while the card is open: the page gets room at its end (app.css), so its last controls
 * (a form's Save button) can be scrolled out from under the floating card instead of hiding behind it.
 */
export const PROMPT_OPEN_BODY_CLASS = 'notification-prompt-open';

type PromptPhase = 'waiting' | 'open' | 'closed';

/**
 * Spec 001 §2 and §4: a floating card on the signed-in screens, 3 s after load, only when the
 * permission is default, this browser has no subscription and the prompt was not dismissed
 * before. Maybe Later and the close control remember the dismissal; Enable asks for permission and
 * subscribes (the card stays open to show a failure).
 */
export function NotificationPrompt() {
  const push = usePush();
  const titleId = useId();
  const [due, setDue] = useState(false);
  const [phase, setPhase] = useState<PromptPhase>('waiting');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setDue(true), NOTIFICATION_PROMPT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const quiet = isQuiet(useLocation().pathname);
  const eligible = push.checked && push.supported && push.permission === 'default' && !push.subscribed;
  useEffect(() => {
    if (phase === 'waiting' && due && eligible && !quiet && !wasDismissed()) setPhase('open');
  }, [phase, due, eligible, quiet]);

  const open = phase === 'open' && !quiet;
  useEffect(() => {
    if (!open) return;
    document.body.classList.add(PROMPT_OPEN_BODY_CLASS);
    return () => document.body.classList.remove(PROMPT_OPEN_BODY_CLASS);
  }, [open]);

  if (!open) return null;

  const dismiss = () => {
    rememberDismissal();
    setPhase('closed');
  };

  const enable = async () => {
    setBusy(true);
    setError(null);
    try {
      await push.enable();
      setPhase('closed');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Failed to enable notifications');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="notification-prompt mate-card mate-card--strong" aria-labelledby={titleId}>
      <button type="button" className="notification-prompt__close" aria-label="Dismiss notification prompt" onClick={dismiss}>
        <Icon name="close" size={18} />
      </button>
      <div className="notification-prompt__icon" aria-hidden="true">
        <Icon name="bell" size={22} />
      </div>
      <div className="notification-prompt__body">
        <h2 id={titleId} className="notification-prompt__title">
          Enable Notifications
        </h2>
        <p className="notification-prompt__text">Stay updated on new matches and messages</p>
        {error && <Alert tone="error">{error}</Alert>}
        <div className="notification-prompt__actions">
          <Button onClick={() => void enable()} loading={busy}>
            Enable Notifications
          </Button>
          <Button variant="ghost" onClick={dismiss} disabled={busy}>
            Maybe Later
          </Button>
        </div>
      </div>
    </section>
  );
}
