import { ChatTexts } from '@mate/contracts';
import { Avatar, EmptyState } from '@mate/ui';
import { useId } from 'react';
import { useAuth } from '../../auth/AuthContext';
import { formatSessionActivity } from '../../lib/relative-time';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';
import { useMemberProfile } from '../member/useMemberProfile';
import { conversationStarters } from './conversation-starters';
import { useMatchedAt } from './useMatchedAt';

/** 'You matched 5 minutes ago', 'You matched just now', 'You matched on 11/20/2026'. */
export function matchedText(matchedAt: string, now: number = Date.now()): string {
  const relative = formatSessionActivity(matchedAt, now);
  if (relative === 'Just now') return 'You matched just now';
  return relative.endsWith(' ago') ? `You matched ${relative}` : `You matched on ${relative}`;
}

export interface NewMatchIntroProps {
  userId: string;
  name: string;
  picture: string | null;
  /** Puts the starter's text into the message input (it is not sent). */
  onStarter: (text: string) => void;
}

/**
 * The top of a conversation without messages (issue 25): who the match is, since when, and three
 * opening lines drawn from what the two share.
 */
export function NewMatchIntro({ userId, name, picture, onStarter }: NewMatchIntroProps) {
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  const startersId = useId();
  const { profile: mine } = useAuth();
  const theirs = useMemberProfile(userId);
  const matchedAt = useMatchedAt(userId, true);
  const starters = conversationStarters(mine, theirs.data ?? null, name);
  const theirPicture = theirs.data?.profilePicture ?? picture;

  return (
    <div className="new-match">
      <div className="new-match__who">
        <Avatar
          name={name}
          src={photoUrl(theirPicture, 'thumb')}
          srcSet={photoSrcSet(theirPicture)}
          size="xl"
        />
        <p className="new-match__name">{name}</p>
        {matchedAt && (
          <p className="new-match__when">
            <time dateTime={matchedAt}>{matchedText(matchedAt)}</time>
          </p>
        )}
      </div>
      <EmptyState
        className="chat__empty"
        title={ChatTexts.noMessages}
        description={ChatTexts.sayHi}
        action={
          <div className="new-match__starters">
            <h3 id={startersId} className="new-match__starters-title">
              Conversation starters
            </h3>
            <ul aria-labelledby={startersId}>
              {starters.map((starter) => (
                <li key={starter}>
                  <button type="button" className="new-match__starter" onClick={() => onStarter(starter)}>
                    {starter}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        }
      />
    </div>
  );
}
