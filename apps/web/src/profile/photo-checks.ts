import { ONBOARDING_PHOTO_MAX_BYTES, PROFILE_PHOTO_MAX_BYTES, ProfileMessages } from '@mate/contracts';

/** Spec 000 §5: the profile screen accepts jpeg, jpg, png and webp. */
export const PROFILE_PHOTO_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'] as const;
/** Spec 000 §5: onboarding takes JPEG, PNG and WebP only. */
export const ONBOARDING_PHOTO_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'] as const;

export const PROFILE_PHOTO_ACCEPT = PROFILE_PHOTO_TYPES.join(',');
export const ONBOARDING_PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp';

interface PickedFile {
  type: string;
  size: number;
}

/**
 * The profile screen's checks before an upload (spec 000 §5): an image ('Please select an image
 * file') of an accepted type, at most 5 MB ('Image must be less than 5MB'). Null when it may go.
 */
export function checkProfilePhoto(file: PickedFile): string | null {
  const type = file.type.toLowerCase();
  if (!type.startsWith('image/') || !(PROFILE_PHOTO_TYPES as readonly string[]).includes(type)) {
    return ProfileMessages.notAnImage;
  }
  if (file.size > PROFILE_PHOTO_MAX_BYTES) return ProfileMessages.profilePhotoTooLarge;
  return null;
}

/**
 * The onboarding photo step's checks (spec 000 §5): JPEG, PNG or WebP only ('Only JPEG, PNG, and
 * WebP images are allowed'), at most 10 MB ('Photo must be less than 10MB').
 */
export function checkOnboardingPhoto(file: PickedFile): string | null {
  if (!(ONBOARDING_PHOTO_TYPES as readonly string[]).includes(file.type.toLowerCase())) {
    return ProfileMessages.onboardingPhotoType;
  }
  if (file.size > ONBOARDING_PHOTO_MAX_BYTES) return ProfileMessages.onboardingPhotoTooLarge;
  return null;
}
