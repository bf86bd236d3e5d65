import type { OwnProfileDto } from '@mate/contracts';
import { Alert, Button, Card, Icon, ProgressBar, Spinner, PageHeader } from '@mate/ui';
import { useState } from 'react';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useProfileCompletion } from '../../profile/useProfileCompletion';
import { PhotosCard } from './PhotosCard';
import { locationUnresolved, ProfileDetails } from './ProfileDetails';
import { ProfileEditForm } from './ProfileEditForm';
import './profile.css';

function CompletionCard() {
  const completion = useProfileCompletion();
  return (
    <Card className="profile-completion">
      {completion.isPending ? (
        // The bar's shape (its line, then its track), so the card keeps its height when the figure comes.
        <div className="mate-progress">
          <Spinner size="sm" label="Loading profile completion..." showLabel />
          <span className="mate-progress__track" aria-hidden="true" />
        </div>
      ) : completion.isError ? (
        <p className="profile-completion__error">{completion.error.message}</p>
      ) : (
        <ProgressBar label={`Profile ${completion.data}% complete`} value={completion.data} />
      )}
    </Card>
  );
}

/** `/profile` (spec 000 §2): photos, completion, the profile and its Edit Profile form. */
export function ProfileScreen() {
  const { profile } = useAuth();
  const [editing, setEditing] = useState(false);
  const [focusLocation, setFocusLocation] = useState(false);
  const [locationNote, setLocationNote] = useState<string | null>(null);
  useDocumentTitle('Profile');
  if (!profile) return null;

  const onSaved = (saved: OwnProfileDto) => {
    setLocationNote(saved.locationNote ?? null);
    setEditing(false);
  };

  return (
    <div className="screen screen--medium profile">
      <PageHeader
        title={profile.name ? `${profile.name}'s Profile` : 'My Profile'}
        subtitle="Your photos and what others see about you."
        actions={
          !editing && (
            <Button
              icon={<Icon name="edit" size={18} />}
              onClick={() => {
                setLocationNote(null);
                setFocusLocation(false);
                setEditing(true);
              }}
            >
              Edit Profile
            </Button>
          )
        }
      />

      <CompletionCard />
      {/* The notice next to Location says it when the place is still unknown. */}
      {locationNote && !locationUnresolved(profile) && (
        <Alert tone="info" title="About your location">
          {locationNote}
        </Alert>
      )}
      <PhotosCard />
      {editing ? (
        <ProfileEditForm
          profile={profile}
          onSaved={onSaved}
          onCancel={() => setEditing(false)}
          focusLocation={focusLocation}
        />
      ) : (
        <ProfileDetails
          profile={profile}
          onChoosePlace={() => {
            setLocationNote(null);
            setFocusLocation(true);
            setEditing(true);
          }}
        />
      )}
    </div>
  );
}
