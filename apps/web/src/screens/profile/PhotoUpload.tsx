import { ClientMessages } from '@mate/api-client';
import { Alert, Icon, Spinner, buttonClassName } from '@mate/ui';
import { useId, useState, type ChangeEvent } from 'react';
import { PROFILE_PHOTO_ACCEPT, checkProfilePhoto } from '../../profile/photo-checks';
import { useUploadPhoto } from '../../profile/usePhotos';

/**
 * The profile screen's upload control (spec 000 §5): checked in the browser first (an image,
 * at most 5 MB), then sent; a failure shows the server's reason or 'Upload failed'.
 */
export function PhotoUpload() {
  const inputId = useId();
  const upload = useUploadPhoto({ fallbackMessage: ClientMessages.uploadFailed });
  const [checkError, setCheckError] = useState<string | null>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so picking the same file again after an error still fires a change.
    event.target.value = '';
    if (!file) return;
    upload.reset();
    const problem = checkProfilePhoto(file);
    setCheckError(problem);
    if (problem) return;
    upload.mutate({ file });
  };

  const error = checkError ?? (upload.isError ? upload.error?.message || ClientMessages.uploadFailed : null);

  return (
    <div className="photo-upload">
      <input
        id={inputId}
        type="file"
        accept={PROFILE_PHOTO_ACCEPT}
        className="mate-visually-hidden photo-upload__input"
        onChange={onChange}
        disabled={upload.isPending}
      />
      <label
        htmlFor={inputId}
        className={buttonClassName({ variant: 'secondary', className: 'photo-upload__button' })}
        aria-disabled={upload.isPending || undefined}
      >
        <Icon name="upload" size={18} />
        Upload photo
      </label>
      <p className="photo-upload__hint">JPEG, PNG or WebP, up to 5 MB.</p>
      {upload.isPending && <Spinner size="sm" label="Uploading..." showLabel />}
      {error && <Alert tone="error">{error}</Alert>}
    </div>
  );
}
