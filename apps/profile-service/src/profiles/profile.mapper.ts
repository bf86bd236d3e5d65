import type { PhotoDto, ProfileDto } from '@mate/contracts';
import type { Photo } from './photo.entity';
import type { Profile } from './profile.entity';

/**
 * A profile counts as completed when these fields are filled in and it has at least one photo:
 * what another member needs to decide (who, how old, which gender, about them, where).
 * Height, occupation, education, lookingFor and interests are optional extras.
 */
export const PROFILE_COMPLETED_FIELDS = ['name', 'age', 'gender', 'bio', 'location'] as const;
export const PROFILE_COMPLETED_MIN_PHOTOS = 1;

function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  return true;
}

export function isProfileCompleted(profile: Profile, photos: readonly Photo[]): boolean {
  return (
    PROFILE_COMPLETED_FIELDS.every((field) => isFilled(profile[field])) &&
    photos.length >= PROFILE_COMPLETED_MIN_PHOTOS
  );
}

/** Photos in display order: by `order`, then oldest first. */
export function sortPhotos(photos: readonly Photo[]): Photo[] {
  return [...photos].sort((a, b) => a.order - b.order || a.createdAt.getTime() - b.createdAt.getTime());
}

/** The picture shown for the member: the primary photo, else the first one. */
export function profilePictureOf(photos: readonly Photo[]): string | null {
  const sorted = sortPhotos(photos);
  return (sorted.find((p) => p.isPrimary) ?? sorted[0])?.url ?? null;
}

export function toPhotoDto(photo: Photo): PhotoDto {
  return { id: photo.id, url: photo.url, isPrimary: photo.isPrimary, order: photo.order };
}

/** The owner's view of a profile, camelCase, every flag present (spec 000 §3). */
export function toProfileDto(profile: Profile, photos: readonly Photo[]): ProfileDto {
  return {
    id: profile.id,
    userId: profile.userId,
    name: profile.name,
    age: profile.age,
    gender: profile.gender,
    bio: profile.bio,
    location: profile.location,
    height: profile.height,
    occupation: profile.occupation,
    education: profile.education,
    lookingFor: profile.lookingFor,
    interests: profile.interests ?? [],
    photos: sortPhotos(photos).map(toPhotoDto),
    profilePicture: profilePictureOf(photos),
    isVerified: profile.isVerified,
    profileCompleted: isProfileCompleted(profile, photos),
    onboardingCompleted: profile.onboardingCompleted,
  };
}
