import { missingProfileParts } from '@mate/contracts';
import { Card, Icon } from '@mate/ui';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useProfileCompletion } from '../../profile/useProfileCompletion';
import { SectionError, SectionLoading } from './HomeSectionStates';

/** A short checklist: the parts worth most; the profile shows the rest. */
export const HOME_CHECKLIST_SHOWN = 4;

/**
 * What would complete the profile: the parts still missing (the rules profile-service scores
 * completion by, from the contracts), most points first, each leading to the profile (the home
 * is only reached once onboarding is done). Hidden once the server says 100%.
 */
export function ProfileChecklistCard() {
  const completion = useProfileCompletion();
  const { profile } = useAuth();
  if (completion.isSuccess && completion.data >= 100) return null;
  const missing = profile ? missingProfileParts({ ...profile, photoCount: profile.photos.length }) : [];
  return (
    <Card
      title="Complete your profile"
      description={
        completion.isSuccess ? `${completion.data}% done. Complete profiles get more matches.` : undefined
      }
      icon={<Icon name="user" size={20} />}
      className="home__checklist"
    >
      {completion.isPending ? (
        <SectionLoading label="Loading your profile checklist..." />
      ) : completion.isError ? (
        <SectionError
          message="Couldn't load your profile completion."
          onRetry={() => void completion.refetch()}
        />
      ) : (
        <ul className="home__todo-list">
          {missing.slice(0, HOME_CHECKLIST_SHOWN).map((part) => (
            <li key={part.part}>
              <Link to="/profile" className="home__todo">
                <span className="home__todo-mark" aria-hidden="true">
                  <Icon name="plus" size={16} />
                </span>
                <span className="home__todo-text">{part.todo}</span>
                <span className="home__todo-points">+{part.points}%</span>
              </Link>
            </li>
          ))}
          <li>
            <Link to="/profile" className="home__todo">
              <span className="home__todo-mark" aria-hidden="true">
                <Icon name="edit" size={16} />
              </span>
              <span className="home__todo-text">
                {missing.length > HOME_CHECKLIST_SHOWN
                  ? `${missing.length - HOME_CHECKLIST_SHOWN} more in your profile`
                  : 'Edit your profile'}
              </span>
            </Link>
          </li>
        </ul>
      )}
    </Card>
  );
}
