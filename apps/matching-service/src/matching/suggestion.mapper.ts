import { coarseDistanceLabel, type SuggestionDto } from '@mate/contracts';
import type { CardMember } from '../candidates/candidate.repository';

/**
 * A candidate as a Discover card (spec 000 §3 plus photos and distance): the score as a whole
 * percent, the photos in display order (the first is the primary), and the distance only as a
 * coarse label. Coordinates never leave the service.
 */
export function toSuggestion(candidate: CardMember, score: number, distanceKm: number | null): SuggestionDto {
  return {
    user: {
      id: candidate.userId,
      name: candidate.name,
      age: candidate.age,
      bio: candidate.bio,
      location: candidate.locationText,
      occupation: candidate.occupation,
      interests: candidate.interests,
      profilePicture: candidate.profilePicture,
    },
    score: Math.min(100, Math.max(0, Math.round(score * 100))),
    photos: candidate.photos.map((photo, index) => ({
      id: photo.id,
      url: photo.url,
      isPrimary: index === 0,
      order: index,
    })),
    distance: coarseDistanceLabel(distanceKm),
  };
}
