import { CARD_MAX_INTERESTS, type SuggestionDto } from '@mate/contracts';
import { Icon, cx } from '@mate/ui';
import type { CSSProperties } from 'react';
import { CardPhotos } from './CardPhotos';
import { swipeLabel, swipeOpacity, swipeTransform, type SwipeDirection } from './swipe';
import { usePrefersReducedMotion } from './usePrefersReducedMotion';
import { useSwipeDrag } from './useSwipeDrag';
import { memberName } from '../../lib/member-name';

/** How far a decided card flies (px): off any screen, whatever the drag had reached. */
const FLY_OUT_PX = 1500;

export interface SwipeCardProps {
  suggestion: SuggestionDto;
  /** Set once the card is decided: it leaves that way during the 300 ms exit. */
  exiting: SwipeDirection | null;
  onDecide: (direction: SwipeDirection) => void;
  /** The card's Report flag (issue 10): opens the report dialog for this member. */
  onReport?: () => void;
  /** 'View profile' and '+N more' (issue 25): open the member's whole profile. */
  onViewProfile?: () => void;
}

/** A press on a control of the card is never the start of a swipe. */
const notASwipe = (event: { stopPropagation: () => void }) => event.stopPropagation();

function cardStyle(offset: number, exiting: SwipeDirection | null, reducedMotion: boolean): CSSProperties {
  if (!exiting) return { transform: swipeTransform(offset), opacity: swipeOpacity(offset) };
  if (reducedMotion) return { transform: swipeTransform(offset), opacity: 0 };
  const target = (exiting === 'right' ? 1 : -1) * Math.max(FLY_OUT_PX, Math.abs(offset));
  return { transform: swipeTransform(target), opacity: 0 };
}

/**
 * The Discover card (spec 000 §2, §4): photos, name, age, location, occupation, the bio in 3
 * lines, up to 5 interests then '+N more', 'N% Match' and the coarse distance. Dragged past
 * 100 px it decides; LIKE and NOPE show beyond 50 px.
 */
export function SwipeCard({ suggestion, exiting, onDecide, onReport, onViewProfile }: SwipeCardProps) {
  const { user, score, photos, distance } = suggestion;
  const { offset, dragging, handlers } = useSwipeDrag({ onDecide, disabled: exiting !== null });
  const reducedMotion = usePrefersReducedMotion();
  const name = memberName(user.name);
  const label = exiting ? (exiting === 'right' ? 'LIKE' : 'NOPE') : swipeLabel(offset);
  const shownInterests = user.interests.slice(0, CARD_MAX_INTERESTS);
  const moreInterests = user.interests.length - shownInterests.length;

  return (
    <article
      className={cx('discover-card', dragging && 'is-dragging', exiting && 'is-exiting')}
      aria-label={user.age !== null ? `${name}, ${user.age}` : name}
      style={cardStyle(offset, exiting, reducedMotion)}
      {...handlers}
    >
      <div className="discover-card__media">
        <CardPhotos name={name} photos={photos} profilePicture={user.profilePicture} />
        {label && (
          <span
            className={cx('discover-card__stamp', label === 'LIKE' ? 'is-like' : 'is-nope')}
            aria-hidden="true"
          >
            {label}
          </span>
        )}
        <span className="discover-card__score">{score}% Match</span>
        {onReport && (
          <button
            type="button"
            className="discover-card__report"
            aria-label="Report"
            title={`Report ${name}`}
            disabled={exiting !== null}
            onPointerDown={notASwipe}
            onClick={onReport}
          >
            <Icon name="flag" size={18} />
          </button>
        )}
      </div>

      <div className="discover-card__info">
        <h2 className="discover-card__name">
          {name}
          {user.age !== null && <span className="discover-card__age">, {user.age}</span>}
        </h2>
        {(user.location || distance) && (
          <p className="discover-card__meta">
            <Icon name="map-pin" size={16} />
            <span>{[user.location, distance].filter(Boolean).join(' · ')}</span>
          </p>
        )}
        {user.occupation && (
          <p className="discover-card__meta">
            <Icon name="star" size={16} />
            <span>{user.occupation}</span>
          </p>
        )}
        {user.bio && <p className="discover-card__bio">{user.bio}</p>}
        {user.interests.length > 0 && (
          <ul className="discover-card__interests" aria-label="Interests">
            {shownInterests.map((interest) => (
              <li key={interest} className="discover-card__interest">
                {interest}
              </li>
            ))}
            {moreInterests > 0 && (
              <li className="discover-card__interest is-more">
                {onViewProfile ? (
                  <button
                    type="button"
                    className="discover-card__more"
                    aria-haspopup="dialog"
                    disabled={exiting !== null}
                    onPointerDown={notASwipe}
                    onClick={onViewProfile}
                  >
                    +{moreInterests} more
                  </button>
                ) : (
                  `+${moreInterests} more`
                )}
              </li>
            )}
          </ul>
        )}
        {onViewProfile && (
          <button
            type="button"
            className="discover-card__view"
            aria-haspopup="dialog"
            disabled={exiting !== null}
            onPointerDown={notASwipe}
            onClick={onViewProfile}
          >
            <Icon name="user" size={16} />
            View profile
          </button>
        )}
      </div>
    </article>
  );
}
