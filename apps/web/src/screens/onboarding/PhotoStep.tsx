import type { PhotoDto } from '@mate/contracts';
import { Alert, Icon, Spinner, buttonClassName } from '@mate/ui';
import { useId, useState, type ChangeEvent } from 'react';
import { ONBOARDING_PHOTO_ACCEPT, checkOnboardingPhoto } from '../../profile/photo-checks';
import { usePhotoUrl, useUploadPhoto } from '../../profile/usePhotos';
import { StepSection } from './StepSection';

/** Spec 000 §5: what the onboarding photo step says when an upload fails. */
export const ONBOARDING_UPLOAD_FAILED = 'Failed to upload photo. Please try again.';

export interface PhotoStepProps {
  photos: PhotoDto[];
  onUploaded: (photo: PhotoDto) => void;
}

export function PhotoStep({ photos, onUploaded }: PhotoStepProps) {
  const inputId = useId();
  const photoUrl = usePhotoUrl();
  const upload = useUploadPhoto({ context: 'onboarding' });
  const [error, setError] = useState<string | null>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkOnboardingPhoto(file);
    setError(problem);
    if (problem) return;
    upload.mutate(
      { file },
      {
        onSuccess: ({ photo }) => onUploaded(photo),
        onError: () => setError(ONBOARDING_UPLOAD_FAILED),
      },
    );
  };

  const shown = photos.find((photo) => photo.isPrimary) ?? photos[photos.length - 1];

  return (
    <StepSection title="Add a Photo" lede="Profiles with a photo get far more matches. You can add more later.">
      <div className="onboarding-photo">
        <div className="onboarding-photo__preview">
          {shown ? (
            // A 160 × 213 px box: the 600 px file is sharp at 2-3x.
            <img src={photoUrl(shown.url, 'medium')} alt="Your photo" />
          ) : (
            <span className="onboarding-photo__empty" aria-hidden="true">
              <Icon name="camera" size={40} />
            </span>
          )}
        </div>
        <div className="onboarding-photo__controls">
          <input
            id={inputId}
            type="file"
            accept={ONBOARDING_PHOTO_ACCEPT}
            className="mate-visually-hidden photo-upload__input"
            onChange={onChange}
            disabled={upload.isPending}
          />
          <label
            htmlFor={inputId}
            className={buttonClassName({ variant: shown ? 'secondary' : 'primary', className: 'photo-upload__button' })}
            aria-disabled={upload.isPending || undefined}
          >
            <Icon name="upload" size={18} />
            Upload photo
          </label>
          <p className="photo-upload__hint">JPEG, PNG or WebP, up to 10 MB.</p>
          {upload.isPending && <Spinner size="sm" label="Uploading..." showLabel />}
          {shown && !upload.isPending && !error && (
            <p className="onboarding-photo__done" role="status">
              <Icon name="check" size={16} /> {photos.length === 1 ? 'Photo added' : `${photos.length} photos added`}
            </p>
          )}
          {error && <Alert tone="error">{error}</Alert>}
        </div>
      </div>
    </StepSection>
  );
}
