import type { LikerDto } from '@mate/contracts';
import { Alert, Avatar, Button, Card, Icon } from '@mate/ui';
import { useRef } from 'react';
import { memberName } from '../../lib/member-name';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';
import { SectionEmpty, SectionError, SectionLoading } from './HomeSectionStates';
import { useAnswerLiker, useLikesReceived } from './useHome';

/**
 * Who liked you: the members who liked this one and are not answered yet. Mate is an open platform
 * with no paid tier, so the list is free (as on Hinge): each liker with photo, name and age, and
 * Like back / Pass on Discover's own routes; a like back makes the match and opens 'It's a Match!'.
 */
export function LikesReceivedCard() {
  const likes = useLikesReceived();
  const answer = useAnswerLiker();
  const likers = likes.data?.pages.flatMap((page) => page.likers) ?? [];
  const total = likes.data?.pages.at(-1)?.total ?? 0;
  const busyId = answer.isPending ? answer.variables.liker.user.id : null;
  const listRef = useRef<HTMLDivElement>(null);
  // The answered tile leaves with the button that had focus: keyboard users stay in the list.
  const keepFocus = () => {
    if (document.activeElement === document.body) listRef.current?.focus();
  };
  return (
    <Card
      title="Who liked you"
      description={
        likes.isSuccess && total > 0
          ? `${total} ${total === 1 ? 'person likes' : 'people like'} you`
          : undefined
      }
      icon={<Icon name="sparkles" size={20} />}
      className="home__likes"
    >
      {answer.isError && (
        <Alert tone="error" className="home__likes-error">
          {answer.error.message}
        </Alert>
      )}
      {likes.isPending ? (
        <SectionLoading label="Loading who liked you..." />
      ) : likes.isError ? (
        <SectionError message="Couldn't load who liked you." onRetry={() => void likes.refetch()} />
      ) : likers.length === 0 ? (
        <SectionEmpty>No new likes right now. Members who like you appear here.</SectionEmpty>
      ) : (
        <div ref={listRef} tabIndex={-1} className="home__likers">
          <ul className="home__liker-list">
            {likers.map((liker) => (
              <LikerTile
                key={liker.user.id}
                liker={liker}
                busy={busyId === liker.user.id}
                disabled={busyId !== null}
                onAnswer={(choice) => answer.mutate({ liker, answer: choice }, { onSuccess: keepFocus })}
              />
            ))}
          </ul>
          {likes.hasNextPage && (
            <Button
              variant="ghost"
              className="home__show-more"
              loading={likes.isFetchingNextPage}
              onClick={() => void likes.fetchNextPage()}
            >
              Show more
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

function LikerTile({
  liker,
  busy,
  disabled,
  onAnswer,
}: {
  liker: LikerDto;
  busy: boolean;
  disabled: boolean;
  onAnswer: (answer: 'like' | 'pass') => void;
}) {
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  const name = memberName(liker.user.name);
  return (
    <li className="home__liker" aria-busy={busy || undefined}>
      <Avatar
        name={name}
        src={photoUrl(liker.user.profilePicture, 'thumb')}
        srcSet={photoSrcSet(liker.user.profilePicture)}
        size="xl"
      />
      <p className="home__liker-name">
        {name}
        {liker.user.age !== null && <span className="home__liker-age">, {liker.user.age}</span>}
      </p>
      <div className="home__liker-actions">
        <Button
          variant="secondary"
          aria-label={`Pass on ${name}`}
          disabled={disabled}
          onClick={() => onAnswer('pass')}
        >
          Pass
        </Button>
        <Button
          aria-label={`Like back ${name}`}
          icon={<Icon name="heart" size={16} />}
          disabled={disabled}
          loading={busy}
          onClick={() => onAnswer('like')}
        >
          Like back
        </Button>
      </div>
    </li>
  );
}
