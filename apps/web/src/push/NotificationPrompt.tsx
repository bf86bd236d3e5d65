import { NOTIFICATION_PROMPT_DELAY_MS } from '@mate/contracts';
import { Alert, Button, Icon } from '@mate/ui';
import { useEffect, useId, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useCall } from '../call/call-types';
import { usePush } from './PushContext';
import './notification-prompt.css';

/**
 * Where the card goes on a screen, so it never covers a primary action:
 * - `held`: not shown until the member leaves — onboarding (its Next button), the call screen
 *   (its controls fill the window);
 * - `inline`: Discover's card and swipe buttons fill a phone's screen, so the card never floats
 *   over them: it does not open there (opening would push the deck down under the member's thumb),
 *   and one already open when the member comes to Discover keeps a place of its own at the top of
 *   the screen, laid out with it;
 * - `top`: a chat's composer and send button sit at the window's bottom, so the card floats at
 *   the top, under the chat's header, over the older messages;
 * - `bottom`: elsewhere it floats at the bottom corner, and the page gets room below to scroll
 *   its last controls clear of it.
 */
export type PromptPlacement = 'held' | 'inline' | 'top' | 'bottom';

const routeIs = (pathname: string, route: string) => pathname === route || pathname.startsWith(`${route}/`);

export function promptPlacement(pathname: string): PromptPlacement {
  if (routeIs(pathname, '/onboarding') || routeIs(pathname, '/call')) return 'held';
  if (routeIs(pathname, '/discover')) return 'inline';
  if (routeIs(pathname, '/chat')) return 'top';
  return 'bottom';
}

/** A new match has the member's attention (the popup, the first message): no prompt for a minute. */
export const PROMPT_QUIET_AFTER_MATCH_MS = 60_000;

/** How long the prompt still waits because of the last match (0: not at all). */
export function matchQuietRemaining(lastMatchAt: number | null, now: number): number {
  if (lastMatchAt === null) return 0;
  return Math.max(0, lastMatchAt + PROMPT_QUIET_AFTER_MATCH_MS - now);
}

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
 * On <body> while the card is open: the page gets room at its end (notification-prompt.css), so its last controls
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

  const placement = promptPlacement(useLocation().pathname);
  const call = useCall();
  const afterMatch = useMatchQuiet(push.lastMatchAt, push.now);
  const focus = useFocusedControl();
  // A ringing or live call has the member's attention, and its bar sits where the card would. An
  // open menu, list or dialog (a chat's safety menu drops down where the card floats) is the
  // member in the middle of something: the card steps aside until they are done. A floating card
  // at the bottom would sit over the field a member is typing in on a phone (the keyboard pushes
  // it up), so there it also waits until they leave the field.
  const quiet =
    placement === 'held' || call.phase !== 'idle' || afterMatch || focus === 'popup' || (placement === 'bottom' && focus === 'field');
  const eligible = push.checked && push.supported && push.permission === 'default' && !push.subscribed;
  // Held screens and Discover: it opens on the next screen the member goes to.
  const opensHere = placement !== 'held' && placement !== 'inline';
  useEffect(() => {
    if (phase === 'waiting' && due && eligible && !quiet && opensHere && !wasDismissed()) setPhase('open');
  }, [phase, due, eligible, quiet, opensHere]);

  const open = phase === 'open' && !quiet;
  useEffect(() => {
    if (!open || placement !== 'bottom') return;
    document.body.classList.add(PROMPT_OPEN_BODY_CLASS);
    return () => document.body.classList.remove(PROMPT_OPEN_BODY_CLASS);
  }, [open, placement]);

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
    <section
      className={`notification-prompt notification-prompt--${placement} mate-card mate-card--strong`}
      aria-labelledby={titleId}
    >
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

/** Fields a member types into or picks from (not buttons, boxes or sliders). */
const EDITABLE =
  'textarea, select, input:not([type=button]):not([type=submit]):not([type=reset]):not([type=checkbox]):not([type=radio]):not([type=range]):not([type=file]):not([type=color])';
/** Menus, lists and dialogs that open over the page. */
const POPUP = '[role=menu], [role=listbox], [role=dialog], [role=alertdialog], dialog';

/** What holds the focus: a popup of the page (its items), a field, or neither. */
export type FocusedControl = 'popup' | 'field' | 'none';

function focusedControl(element: EventTarget | Element | null): FocusedControl {
  if (!(element instanceof HTMLElement) || element.closest('.notification-prompt')) return 'none';
  if (element.closest(POPUP)) return 'popup';
  return element.isContentEditable || element.matches(EDITABLE) ? 'field' : 'none';
}

/**
 * What the focused element of the page is, read again whenever focus moves. It is read from
 * `document.activeElement` at render, not kept from the events: a focused element that is removed
 * (a dialog's button as the dialog closes) fires no focusout, and would otherwise hold the card
 * back until focus next moved.
 */
export function useFocusedControl(): FocusedControl {
  const [, setMoves] = useState(0);
  useEffect(() => {
    const moved = () => setMoves((count) => count + 1);
    document.addEventListener('focusin', moved);
    document.addEventListener('focusout', moved);
    return () => {
      document.removeEventListener('focusin', moved);
      document.removeEventListener('focusout', moved);
    };
  }, []);
  return focusedControl(document.activeElement);
}

/** True while the last match is under a minute old; re-renders when the minute is up. */
function useMatchQuiet(lastMatchAt: number | null, now: () => number): boolean {
  const [, setExpired] = useState(0);
  const remaining = matchQuietRemaining(lastMatchAt, now());
  useEffect(() => {
    if (remaining === 0) return;
    const timer = setTimeout(() => setExpired((count) => count + 1), remaining);
    return () => clearTimeout(timer);
  }, [remaining, lastMatchAt]);
  return remaining > 0;
}
