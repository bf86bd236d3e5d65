import { buttonClassName, Avatar, Card, Icon } from '@mate/ui';
import { Link } from 'react-router-dom';
import { memberName } from '../../lib/member-name';
import { usePhotoUrl } from '../../profile/usePhotos';
import { SectionEmpty, SectionError, SectionLoading } from './HomeSectionStates';
import { useMyMatches } from './useHome';

/** How many matches the home shows; all of them are in Messages. */
export const HOME_MATCHES_SHOWN = 12;

/** The member's matches, newest first, each one tap from its chat. */
export function NewMatchesCard() {
  const matches = useMyMatches();
  const photoUrl = usePhotoUrl();
  const shown = matches.data?.slice(0, HOME_MATCHES_SHOWN) ?? [];
  return (
    <Card
      title="New matches"
      icon={<Icon name="heart" size={20} />}
      className="home__matches"
      actions={
        matches.data && matches.data.length > HOME_MATCHES_SHOWN ? (
          <Link to="/matches" className="home__more">
            See all
          </Link>
        ) : undefined
      }
    >
      {matches.isPending ? (
        <SectionLoading label="Loading your matches..." />
      ) : matches.isError ? (
        <SectionError message="Couldn't load your matches." onRetry={() => void matches.refetch()} />
      ) : shown.length === 0 ? (
        <SectionEmpty
          action={
            <Link to="/discover" className={buttonClassName({ variant: 'secondary' })}>
              Find matches in Discover
            </Link>
          }
        >
          No matches yet. When someone you like likes you back, they appear here.
        </SectionEmpty>
      ) : (
        <ul className="home__match-list">
          {shown.map((match) => {
            const name = memberName(match.name);
            return (
              <li key={match.matchId}>
                <Link
                  to={`/chat/${encodeURIComponent(match.userId)}`}
                  className="home__match"
                  aria-label={`Chat with ${name}`}
                >
                  <Avatar name={name} src={photoUrl(match.profilePicture, 'thumb')} size="lg" />
                  <span className="home__match-name">{name}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
