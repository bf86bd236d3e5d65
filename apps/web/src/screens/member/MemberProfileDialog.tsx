import { displayMessage } from '@mate/api-client';
import { Alert, Button, Dialog, Icon, Spinner } from '@mate/ui';
import { useId, useRef, type ReactNode } from 'react';
import { memberName } from '../../lib/member-name';
import { LIFESTYLE_CHOICES, lifestyleLabel, lookingForText } from '../../profile/labels';
import { MemberGallery } from './MemberGallery';
import { memberViewOf, type MemberPreview } from './member-view';
import { useMemberProfile } from './useMemberProfile';
import './member-profile.css';

export interface MemberProfileActions {
  onPass: () => void;
  onLike: () => void;
}

export interface MemberProfileDialogProps {
  userId: string;
  /** Shown while the profile loads (the Discover card's data, or a list's name and picture). */
  preview?: MemberPreview;
  /** Escape, the backdrop, Close, and after Like or Pass. */
  onClose: () => void;
  /** On Discover: the card's own Like and Pass, which also close the view. */
  actions?: MemberProfileActions;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="member-profile__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="member-profile__heading">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="member-profile__fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * A member's whole profile (issue 25) as a modal dialog, a full-screen sheet on a phone: every
 * photo, the whole bio, every interest and every fact the member has filled in. The Discover card
 * keeps its 3-line bio and 5 interests; this is where the rest is read.
 */
export function MemberProfileDialog({ userId, preview, onClose, actions }: MemberProfileDialogProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const query = useMemberProfile(userId);
  const member = memberViewOf(preview, query.data);
  const name = memberName(member.name);
  const title = member.age !== null ? `${name}, ${member.age}` : name;

  const facts: { label: string; value: ReactNode }[] = [];
  if (member.location) facts.push({ label: 'Location', value: member.location });
  if (member.distance) facts.push({ label: 'Distance', value: member.distance });
  if (member.height) facts.push({ label: 'Height', value: `${member.height} cm` });
  if (member.occupation) facts.push({ label: 'Occupation', value: member.occupation });
  if (member.education) facts.push({ label: 'Education', value: member.education });
  if (member.lookingFor) facts.push({ label: 'Looking For', value: lookingForText(member.lookingFor) });
  for (const { key, label } of LIFESTYLE_CHOICES) {
    const value = member.lifestyle[key];
    if (value) facts.push({ label, value: lifestyleLabel(key, value) });
  }

  const act = (action: () => void) => () => {
    onClose();
    action();
  };

  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      initialFocusRef={closeRef}
      className="member-profile"
      footer={
        actions && (
          <div className="member-profile__actions" role="group" aria-label="Swipe actions">
            <Button
              variant="secondary"
              size="lg"
              icon={<Icon name="close" size={22} />}
              onClick={act(actions.onPass)}
            >
              Pass
            </Button>
            <Button size="lg" icon={<Icon name="heart" size={22} />} onClick={act(actions.onLike)}>
              Like
            </Button>
          </div>
        )
      }
    >
      <button
        ref={closeRef}
        type="button"
        className="member-profile__close"
        aria-label="Close profile"
        title="Close"
        onClick={onClose}
      >
        <Icon name="close" size={20} />
      </button>

      <MemberGallery name={name} urls={member.photoUrls} />

      {query.isPending && (
        <Spinner label="Loading profile..." showLabel={!preview} className="member-profile__loading" />
      )}
      {query.isError && !preview && (
        <Alert tone="error" title="Could not load this profile">
          {displayMessage(query.error, 'Failed to get user profile')}
        </Alert>
      )}

      {member.bio && (
        <Section title="About">
          <p className="member-profile__bio">{member.bio}</p>
        </Section>
      )}

      {member.interests.length > 0 && (
        <Section title="Interests">
          <ul className="member-profile__interests" aria-label="Interests">
            {member.interests.map((interest) => (
              <li key={interest} className="tag">
                {interest}
              </li>
            ))}
          </ul>
        </Section>
      )}

      {facts.length > 0 && (
        <Section title="Details">
          <dl className="member-profile__facts">
            {facts.map((fact) => (
              <Fact key={fact.label} {...fact} />
            ))}
          </dl>
        </Section>
      )}
    </Dialog>
  );
}
