import { locationNotFoundNotice, type OwnProfileDto, type ProfileDto } from '@mate/contracts';
import { Button, Card, Icon } from '@mate/ui';
import type { ReactNode } from 'react';
import { genderLabel, LIFESTYLE_CHOICES, lifestyleLabel, lookingForText } from '../../profile/labels';

const NOT_SET = 'Not set';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="profile-facts__item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * The session keeps the profile as `ProfileDto`; the own profile the server sent also says
 * whether its place was found (`locationResolved`, false only for a location it could not place).
 */
export function locationUnresolved(profile: ProfileDto): boolean {
  return Boolean(profile.location) && (profile as Partial<OwnProfileDto>).locationResolved === false;
}

/** Why members with a distance limit do not see this member, and the way to fix it (issue 25). */
function PlaceNotFound({ location, onChoosePlace }: { location: string; onChoosePlace?: () => void }) {
  return (
    <div className="place-notice" role="note" aria-label="Location not found">
      <Icon name="map-pin" size={18} className="place-notice__icon" />
      <p className="place-notice__text">{locationNotFoundNotice(location)}</p>
      {onChoosePlace && (
        <Button variant="secondary" className="place-notice__action" onClick={onChoosePlace}>
          Choose your place
        </Button>
      )}
    </div>
  );
}

/** Spec 000 §2: About (or 'No bio yet'), the facts, Looking For with hyphens as spaces, Interests. */
export function ProfileDetails({ profile, onChoosePlace }: { profile: ProfileDto; onChoosePlace?: () => void }) {
  return (
    <>
      <Card title="About" icon={<Icon name="user" size={20} />}>
        <p className={profile.bio ? 'profile-about' : 'profile-about profile-about--empty'}>
          {profile.bio || 'No bio yet'}
        </p>
      </Card>

      <Card title="Details" icon={<Icon name="sparkles" size={20} />}>
        <dl className="profile-facts">
          <Fact label="Name">{profile.name || NOT_SET}</Fact>
          <Fact label="Age">{profile.age ?? NOT_SET}</Fact>
          <Fact label="Gender">{profile.gender ? genderLabel(profile.gender) : NOT_SET}</Fact>
          <Fact label="Location">
            {profile.location || NOT_SET}
            {profile.location && locationUnresolved(profile) && (
              <PlaceNotFound location={profile.location} onChoosePlace={onChoosePlace} />
            )}
          </Fact>
          <Fact label="Height">{profile.height ? `${profile.height} cm` : NOT_SET}</Fact>
          <Fact label="Occupation">{profile.occupation || NOT_SET}</Fact>
          <Fact label="Education">{profile.education || NOT_SET}</Fact>
          <Fact label="Looking For">
            <span className="profile-facts__looking">
              {profile.lookingFor ? lookingForText(profile.lookingFor) : NOT_SET}
            </span>
          </Fact>
          {LIFESTYLE_CHOICES.map(({ key, label }) => {
            // Lifestyle is optional and newer than the other facts: shown only once the member has said.
            const value = profile[key];
            return value ? (
              <Fact key={key} label={label}>
                {lifestyleLabel(key, value)}
              </Fact>
            ) : null;
          })}
        </dl>
      </Card>

      <Card title="Interests" icon={<Icon name="heart" size={20} />}>
        {profile.interests.length > 0 ? (
          <ul className="tag-list">
            {profile.interests.map((interest) => (
              <li key={interest} className="tag">
                {interest}
              </li>
            ))}
          </ul>
        ) : (
          <p className="profile-about profile-about--empty">No interests yet</p>
        )}
      </Card>
    </>
  );
}
