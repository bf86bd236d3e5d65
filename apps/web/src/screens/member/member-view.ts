import type { LifestyleField, MemberProfileDto, PhotoDto, SuggestionDto } from '@mate/contracts';

/** What the profile view shows of a member, from the profile or, until it arrives, from a card. */
export interface MemberView {
  name: string | null;
  age: number | null;
  bio: string | null;
  location: string | null;
  distance: string | null;
  occupation: string | null;
  education: string | null;
  height: number | null;
  lookingFor: string | null;
  interests: string[];
  photoUrls: string[];
  lifestyle: Partial<Record<LifestyleField, string | null>>;
}

/** What the opener already knows: the Discover card's suggestion, or a name and picture from a list. */
export type MemberPreview = Partial<Omit<MemberView, 'lifestyle'>>;

function urlsOf(photos: readonly PhotoDto[], picture: string | null): string[] {
  const urls = photos.map((photo) => photo.url).filter(Boolean);
  return urls.length > 0 ? urls : picture ? [picture] : [];
}

/** The card's data, which the view shows at once (it lacks height, education, lifestyle…). */
export function previewOfSuggestion({ user, photos, distance }: SuggestionDto): MemberPreview {
  return {
    name: user.name,
    age: user.age,
    bio: user.bio,
    location: user.location,
    occupation: user.occupation,
    interests: user.interests,
    photoUrls: urlsOf(photos, user.profilePicture),
    distance,
  };
}

/**
 * The profile wins over the preview, except the distance: on Discover it is the label the card
 * showed, so the two never disagree.
 */
export function memberViewOf(preview: MemberPreview | undefined, profile: MemberProfileDto | undefined): MemberView {
  if (!profile) {
    return {
      name: preview?.name ?? null,
      age: preview?.age ?? null,
      bio: preview?.bio ?? null,
      location: preview?.location ?? null,
      distance: preview?.distance ?? null,
      occupation: preview?.occupation ?? null,
      education: preview?.education ?? null,
      height: preview?.height ?? null,
      lookingFor: preview?.lookingFor ?? null,
      interests: preview?.interests ?? [],
      photoUrls: preview?.photoUrls ?? [],
      lifestyle: {},
    };
  }
  const photoUrls = urlsOf(profile.photos, profile.profilePicture);
  return {
    name: profile.name ?? preview?.name ?? null,
    age: profile.age ?? preview?.age ?? null,
    bio: profile.bio,
    location: profile.location,
    distance: preview?.distance ?? profile.distance ?? null,
    occupation: profile.occupation,
    education: profile.education,
    height: profile.height,
    lookingFor: profile.lookingFor,
    interests: profile.interests,
    photoUrls: photoUrls.length > 0 ? photoUrls : (preview?.photoUrls ?? []),
    lifestyle: {
      smoking: profile.smoking ?? null,
      drinking: profile.drinking ?? null,
      exercise: profile.exercise ?? null,
      pets: profile.pets ?? null,
    },
  };
}
