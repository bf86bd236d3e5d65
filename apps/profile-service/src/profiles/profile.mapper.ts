import type { OwnProfileDto, PhotoDto, ProfilePhotoRef, ProfileUpdatedPayload, PublicProfileDto } from '@mate/contracts';
import type { Photo } from '../photos/photo.entity';
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

/** Rejected photos are kept for moderation but never shown, counted or answered. */
export function visiblePhotos(photos: readonly Photo[]): Photo[] {
  return photos.filter((p) => p.moderationStatus !== 'rejected');
}

/** What other members (and every service showing it to them) see: visible and not hidden for review. */
export function memberVisiblePhotos(photos: readonly Photo[]): Photo[] {
  return visiblePhotos(photos).filter((p) => !p.hiddenFromMembers);
}

export function isProfileCompleted(profile: Profile, photos: readonly Photo[]): boolean {
  return (
    PROFILE_COMPLETED_FIELDS.every((field) => isFilled(profile[field])) &&
    visiblePhotos(photos).length >= PROFILE_COMPLETED_MIN_PHOTOS
  );
}

/** Visible photos in display order: by `order`, then oldest first. */
export function sortPhotos(photos: readonly Photo[]): Photo[] {
  return visiblePhotos(photos).sort(
    (a, b) => a.order - b.order || a.createdAt.getTime() - b.createdAt.getTime(),
  );
}

/** The picture shown for the member: the primary photo, else the first one. */
export function profilePictureOf(photos: readonly Photo[]): string | null {
  const sorted = sortPhotos(photos);
  return (sorted.find((p) => p.isPrimary) ?? sorted[0])?.url ?? null;
}

export function toPhotoDto(photo: Photo): PhotoDto {
  return { id: photo.id, url: photo.url, isPrimary: photo.isPrimary, order: photo.order };
}

/**
 * The fields every member may see: no email, coordinates, moderation or onboarding state; photos
 * hidden for review are left out.
 */
export function toPublicProfileDto(profile: Profile, photos: readonly Photo[]): PublicProfileDto {
  return ownerOrPublicView(profile, memberVisiblePhotos(photos));
}

function ownerOrPublicView(profile: Profile, photos: readonly Photo[]): PublicProfileDto {
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
    smoking: profile.smoking,
    drinking: profile.drinking,
    exercise: profile.exercise,
    pets: profile.pets,
  };
}

/** The owner's view of a profile, camelCase, every flag present (spec 000 §3); no coordinates. */
export function toProfileDto(profile: Profile, photos: readonly Photo[]): OwnProfileDto {
  return {
    // The owner sees every photo of theirs, those hidden from others for review included.
    ...ownerOrPublicView(profile, photos),
    isVerified: profile.isVerified,
    profileCompleted: isProfileCompleted(profile, photos),
    onboardingCompleted: profile.onboardingCompleted,
    locationResolved: profile.location === null ? null : (profile.locationResolved ?? false),
  };
}

/** Everything matching needs, coordinates included: this goes to services, never to members. */
export function toProfileUpdatedPayload(profile: Profile, photos: readonly Photo[]): ProfileUpdatedPayload {
  // Other services show these to other members: photos hidden for review are left out.
  const visible = memberVisiblePhotos(photos);
  return {
    userId: profile.userId,
    name: profile.name,
    age: profile.age,
    gender: profile.gender,
    lookingFor: profile.lookingFor,
    interests: profile.interests ?? [],
    height: profile.height,
    education: profile.education,
    latitude: profile.locationLat,
    longitude: profile.locationLng,
    locationText: profile.location,
    hasPhoto: visible.length > 0,
    profilePicture: profilePictureOf(visible),
    isVerified: profile.isVerified,
    onboardingCompleted: profile.onboardingCompleted,
    smoking: profile.smoking,
    drinking: profile.drinking,
    exercise: profile.exercise,
    pets: profile.pets,
    bio: profile.bio,
    occupation: profile.occupation,
    photos: cardPhotos(visible),
    updatedAt: profile.updatedAt.toISOString(),
  };
}

/** The visible photos for a Discover card: the primary first, then the member's order. */
function cardPhotos(visible: readonly Photo[]): ProfilePhotoRef[] {
  const sorted = sortPhotos(visible);
  const primary = sorted.find((p) => p.isPrimary) ?? sorted[0];
  return (primary ? [primary, ...sorted.filter((p) => p !== primary)] : []).map((p) => ({ id: p.id, url: p.url }));
}
