import { Alert, Button, Card, EmptyState, Icon, Spinner, buttonClassName, PageHeader } from '@mate/ui';
import type { SuggestionDto } from '@mate/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useMatchPopup } from '../../realtime/MatchPopup';
import { ReportDialog } from '../../safety/SafetyDialogs';
import { memberName } from '../../lib/member-name';
import { MemberProfileDialog } from '../member/MemberProfileDialog';
import { previewOfSuggestion } from '../member/member-view';
import { SwipeCard } from './SwipeCard';
import type { SwipeDirection } from './swipe';
import { useDiscoverQueue } from './useDiscoverQueue';
import './discover.css';

/** Arrow keys swipe unless the member is typing somewhere. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !['button', 'checkbox', 'radio', 'range', 'submit', 'reset'].includes(target.type)
  );
}

/** Spec 000 §2: 'N potential matches', word for word (also for one). */
function countText(count: number): string {
  return `${count} potential matches`;
}

/**
 * `/discover` (spec 000 §2, §4): the swipe card with Pass, Rewind and Like, dragging, and the arrow
 * keys (left passes, right likes). A like that matches opens 'It's a Match!'.
 */
export function DiscoverScreen() {
  const { showMatch, open: matchOpen } = useMatchPopup();
  const queue = useDiscoverQueue({ onMatch: showMatch });
  const { decide, top } = queue;
  // The member being reported from the card: the report only, the card stays (issue 10).
  const [reporting, setReporting] = useState<SuggestionDto['user'] | null>(null);
  // The member whose whole profile is open (issue 25).
  const [viewing, setViewing] = useState<SuggestionDto | null>(null);
  const dialogOpen = matchOpen || reporting !== null || viewing !== null;
  const passRef = useRef<HTMLButtonElement>(null);
  const likeRef = useRef<HTMLButtonElement>(null);
  /** A Like or Pass from the profile view: its card leaves, so the focus goes to the same action here. */
  const decidedInView = useRef<SwipeDirection | null>(null);
  useDocumentTitle('Discover');

  useEffect(() => {
    // Runs after the view's own focus return (to the leaving card), so this one wins.
    if (viewing !== null || !decidedInView.current) return;
    (decidedInView.current === 'right' ? likeRef : passRef).current?.focus();
    decidedInView.current = null;
  }, [viewing]);

  const decideInView = (direction: SwipeDirection) => {
    decidedInView.current = direction;
    decide(direction);
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      // Held keys repeat: one press, one decision.
      if (event.repeat || dialogOpen || event.defaultPrevented || isTextField(event.target)) return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      decide(event.key === 'ArrowRight' ? 'right' : 'left');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [decide, dialogOpen]);

  return (
    <div className="screen screen--narrow discover">
      <PageHeader
        title="Discover"
        subtitle={
          // The line is there while the cards load (blank), so nothing below moves when the count comes.
          <span aria-live="polite">{queue.status === 'ready' ? countText(queue.cards.length) : '\u00a0'}</span>
        }
        actions={
          <Link
            to="/settings/filters"
            aria-label="Filters"
            className={buttonClassName({ variant: 'secondary' })}
          >
            <Icon name="filter" size={18} />
            Filters
          </Link>
        }
      />

      <div className="discover__deck">
        {queue.status === 'loading' ? (
          // A card's shape (photo box and text area), so the first card takes its place without moving the page.
          <div className="discover-card discover-card--loading">
            <div className="discover-card__media">
              <div className="discover-card__photos discover-card__photos--empty">
                <Spinner label="Loading matches..." showLabel />
              </div>
            </div>
            <div className="discover-card__info discover-card__info--loading" aria-hidden="true" />
          </div>
        ) : queue.status === 'error' ? (
          <Alert tone="error" title="Could not load matches">
            {queue.loadError}
            <div className="alert-actions">
              <Button variant="secondary" onClick={() => void queue.refresh()}>
                Try Again
              </Button>
            </div>
          </Alert>
        ) : top ? (
          <SwipeCard
            key={top.user.id}
            suggestion={top}
            exiting={queue.exiting}
            onDecide={decide}
            onReport={() => setReporting(top.user)}
            onViewProfile={() => setViewing(top)}
          />
        ) : (
          <Card className="discover__placeholder">
            <EmptyState
              icon={<Icon name="compass" size={32} />}
              title="No more matches"
              description="Check back soon, or widen your preferences."
              action={
                <Button icon={<Icon name="refresh" size={18} />} onClick={() => void queue.refresh()}>
                  Refresh
                </Button>
              }
            />
          </Card>
        )}
      </div>

      {queue.status !== 'error' && (
        // aria-disabled, not disabled: a button that just acted keeps the keyboard focus. Shown (and
        // inert: no card yet) while the cards load, so they do not push the hint down when they come.
        <div className="discover__actions" role="group" aria-label="Swipe actions">
          <Button
            ref={passRef}
            variant="secondary"
            size="lg"
            className="discover__action discover__action--pass"
            icon={<Icon name="close" size={22} />}
            aria-disabled={!top}
            onClick={() => decide('left')}
          >
            Pass
          </Button>
          <Button
            variant="secondary"
            size="lg"
            className="discover__action discover__action--rewind"
            icon={<Icon name="refresh" size={20} />}
            aria-disabled={!queue.canRewind}
            onClick={() => void queue.rewind()}
          >
            Rewind
          </Button>
          <Button
            ref={likeRef}
            size="lg"
            className="discover__action discover__action--like"
            icon={<Icon name="heart" size={22} />}
            aria-disabled={!top}
            onClick={() => decide('right')}
          >
            Like
          </Button>
        </div>
      )}

      {queue.notice && <Alert tone="info">{queue.notice}</Alert>}

      <p className="discover__hint">Swipe right to like • Swipe left to pass</p>

      {viewing && (
        <MemberProfileDialog
          userId={viewing.user.id}
          preview={previewOfSuggestion(viewing)}
          onClose={() => setViewing(null)}
          actions={{ onPass: () => decideInView('left'), onLike: () => decideInView('right') }}
        />
      )}

      {reporting && (
        <ReportDialog
          userId={reporting.id}
          name={memberName(reporting.name)}
          onCancel={() => setReporting(null)}
          onDone={() => setReporting(null)}
        />
      )}
    </div>
  );
}
