import { EdgeMessages } from './errors';

/** Option lists of spec 000 §3 and 001 §3. Both readings of gender and lookingFor are accepted. */
export const PROFILE_GENDERS = ['male', 'female', 'non-binary', 'other'] as const;
export const ONBOARDING_GENDERS = ['male', 'female', 'non-binary', 'prefer-not-to-say'] as const;
export const ALL_GENDERS = ['male', 'female', 'non-binary', 'other', 'prefer-not-to-say'] as const;
export type Gender = (typeof ALL_GENDERS)[number];

export const PROFILE_LOOKING_FOR = [
  { value: 'relationship', label: 'Long-term Relationship' },
  { value: 'casual', label: 'Something Casual' },
  { value: 'friendship', label: 'New Friends' },
  { value: 'not-sure', label: 'Not Sure Yet' },
] as const;
export const ONBOARDING_LOOKING_FOR = ['long-term', 'short-term', 'friendship', 'casual', 'not-sure'] as const;
export const ALL_LOOKING_FOR = ['relationship', 'casual', 'friendship', 'not-sure', 'long-term', 'short-term'] as const;
export type LookingFor = (typeof ALL_LOOKING_FOR)[number];

export const PROFILE_INTERESTS = [
  'Travel', 'Music', 'Fitness', 'Cooking', 'Art', 'Photography', 'Reading', 'Gaming', 'Sports',
  'Movies', 'Dancing', 'Hiking', 'Technology', 'Fashion', 'Food', 'Pets', 'Yoga', 'Writing',
] as const;
export const ONBOARDING_INTEREST_SUGGESTIONS = [
  'Travel', 'Photography', 'Music', 'Fitness', 'Cooking', 'Reading', 'Movies', 'Gaming', 'Art', 'Yoga',
  'Hiking', 'Dancing', 'Sports', 'Coffee', 'Wine', 'Technology', 'Fashion', 'Pets', 'Food', 'Nature',
] as const;

export const INTERESTED_IN_OPTIONS = ['male', 'female', 'non-binary', 'other'] as const;

export interface PhotoDto {
  id: string;
  url: string;
  isPrimary: boolean;
  order: number;
}

/** Profile as the owner reads it (spec 000 §3), camelCase: the public fields and the flags. */
export interface ProfileDto extends PublicProfileDto {
  isVerified: boolean;
  profileCompleted: boolean;
  onboardingCompleted: boolean;
}

export interface ProfileCompletionDto {
  percentage: number;
}

export interface PreferencesDto {
  minAge: number;
  maxAge: number;
  maxDistance: number;
  genderPreference: string[];
  interests: string[];
  dealbreakers: string[];
}

export const DEFAULT_PREFERENCES: PreferencesDto = {
  minAge: 18,
  maxAge: 99,
  maxDistance: 50,
  genderPreference: [],
  interests: [],
  dealbreakers: [],
};

/** Filter preferences of spec 001 §3 (`/api/profile/me/preferences`). Empty list = everyone. */
export const FILTER_GENDER_OPTIONS = [
  { value: 'male', label: 'Man' },
  { value: 'female', label: 'Woman' },
  { value: 'non-binary', label: 'Non-binary' },
  { value: 'other', label: 'Other' },
] as const;
export const EDUCATION_OPTIONS = [
  { value: 'high_school', label: 'High School' },
  { value: 'some_college', label: 'Some College' },
  { value: 'associate', label: 'Associate Degree' },
  { value: 'bachelor', label: "Bachelor's Degree" },
  { value: 'master', label: "Master's Degree" },
  { value: 'doctorate', label: 'Doctorate' },
  { value: 'other', label: 'Other' },
] as const;
export const RELATIONSHIP_GOAL_OPTIONS = [
  { value: 'casual', label: 'Casual Dating' },
  { value: 'long_term', label: 'Long-term Relationship' },
  { value: 'marriage', label: 'Marriage' },
  { value: 'friendship', label: 'Friendship' },
  { value: 'not_sure', label: 'Not Sure' },
] as const;
export const SMOKING_DRINKING_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: 'socially', label: 'Socially' },
  { value: 'regularly', label: 'Regularly' },
  { value: 'prefer_not_to_say', label: 'Prefer not to say' },
] as const;
export const EXERCISE_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: 'sometimes', label: 'Sometimes' },
  { value: 'regularly', label: 'Regularly' },
  { value: 'daily', label: 'Daily' },
] as const;
export const PETS_OPTIONS = [
  { value: 'none', label: 'None' },
  { value: 'dog', label: 'Dog' },
  { value: 'cat', label: 'Cat' },
  { value: 'other', label: 'Other' },
  { value: 'multiple', label: 'Multiple' },
] as const;

/**
 * Lifestyle values a member may set on their profile (issue 8): the stored values of spec 001 §3,
 * the same lists the filter preferences choose among. Each is optional; null means "not said".
 */
export const SMOKING_VALUES = SMOKING_DRINKING_OPTIONS.map((o) => o.value);
export const DRINKING_VALUES = SMOKING_DRINKING_OPTIONS.map((o) => o.value);
export const EXERCISE_VALUES = EXERCISE_OPTIONS.map((o) => o.value);
export const PETS_VALUES = PETS_OPTIONS.map((o) => o.value);
export type SmokingValue = (typeof SMOKING_DRINKING_OPTIONS)[number]['value'];
export type DrinkingValue = SmokingValue;
export type ExerciseValue = (typeof EXERCISE_OPTIONS)[number]['value'];
export type PetsValue = (typeof PETS_OPTIONS)[number]['value'];
export const LIFESTYLE_FIELDS = ['smoking', 'drinking', 'exercise', 'pets'] as const;
export type LifestyleField = (typeof LIFESTYLE_FIELDS)[number];

/** The lifestyle fields of a profile; null when the member has not said. */
export interface LifestyleFields {
  smoking: SmokingValue | null;
  drinking: DrinkingValue | null;
  exercise: ExerciseValue | null;
  pets: PetsValue | null;
}

export interface FilterPreferencesDto {
  minAge: number;
  maxAge: number;
  maxDistance: number;
  minHeight?: number | null;
  maxHeight?: number | null;
  genderPreference: string[];
  educationPreference: string[];
  relationshipGoalPreference: string[];
  smokingPreference: string[];
  drinkingPreference: string[];
  exercisePreference: string[];
  petsPreference: string[];
  requiredInterests: string[];
}

export const DEFAULT_FILTER_PREFERENCES: FilterPreferencesDto = {
  minAge: 18,
  maxAge: 99,
  maxDistance: 50,
  minHeight: null,
  maxHeight: null,
  genderPreference: [],
  educationPreference: [],
  relationshipGoalPreference: [],
  smokingPreference: [],
  drinkingPreference: [],
  exercisePreference: [],
  petsPreference: [],
  requiredInterests: [],
};

/** Answer of `POST /api/photos/upload` (multipart field `photo`). */
export interface PhotoUploadResponse {
  url: string;
  photo: PhotoDto;
}

/** Another member's profile as members may see it: no email, no coordinates, no hidden fields. */
export interface PublicProfileDto {
  id: string;
  userId: string;
  name: string | null;
  age: number | null;
  gender: string | null;
  bio: string | null;
  location: string | null;
  height: number | null;
  occupation: string | null;
  education: string | null;
  lookingFor: string | null;
  interests: string[];
  photos: PhotoDto[];
  profilePicture: string | null;
  /**
   * Lifestyle (issue 8, spec 001 §3 values); null = not said. profile-service always sends them;
   * they are optional in the type so that clients built against older answers still compile.
   */
  smoking?: SmokingValue | null;
  drinking?: DrinkingValue | null;
  exercise?: ExerciseValue | null;
  pets?: PetsValue | null;
}

/**
 * `GET /api/profile/{userId}` (issue 25): the public profile plus how far away the member is, as
 * the coarse label of the Discover card (`coarseDistanceLabel`), null when either place is unknown.
 */
export interface MemberProfileDto extends PublicProfileDto {
  /** Optional in the type only, like the lifestyle fields: profile-service always sends it. */
  distance?: string | null;
}

/** `GET /api/profile/places?q=&limit=` (issue 25): places offered while a member types a location. */
export const PLACE_QUERY_MAX_LENGTH = 100;
export const PLACE_SUGGESTIONS_MAX_LIMIT = 10;
export const PLACE_SUGGESTIONS_DEFAULT_LIMIT = 8;

/** One place offered for the location field; `label` is the text to store (it geocodes back to the place). */
export interface PlaceSuggestionDto {
  name: string;
  /** The country's English name. */
  country: string;
  label: string;
}

/**
 * The profile's notice for a location the server could not place (`locationResolved: false`):
 * such a member is never suggested to anyone who has a known place (they all have a distance limit).
 */
export function locationNotFoundNotice(location: string): string {
  return `We couldn't find “${location}” on the map, so members who set a distance limit won't see you. Choose your place from the list.`;
}

/** Profile validation and photo messages shown by the spec (000 §5), enforced by the server too. */
export const ProfileMessages = {
  underage: 'You must be 18 or older to use the product',
  maxInterests: 'Maximum 10 interests allowed',
  notAnImage: 'Please select an image file',
  profilePhotoTooLarge: 'Image must be less than 5MB',
  onboardingPhotoTooLarge: 'Photo must be less than 10MB',
  onboardingPhotoType: 'Only JPEG, PNG, and WebP images are allowed',
  tooManyPhotos: 'You can upload at most 6 photos',
  photoNotFound: 'Photo not found',
  profileNotFound: 'Profile not found',
  photoRequired: 'Please upload a photo',
  photoNotUploadedHere: 'Photos must be uploaded to Mate first',
  photoOrderMismatch: 'The new order must list each of your photos exactly once',
  imageTooLargeToProcess: 'Image dimensions are too large',
  /** A member over the upload rate (429, with Retry-After). */
  tooManyUploads: 'Too many uploads. Please try again later.',
  /** This process already has as many uploads waiting to be processed as it may hold (503, with Retry-After). */
  uploadsBusy: EdgeMessages.unavailable,
  locationUnknown: "We couldn't find this city on the map, so members who set a distance limit won't see you. Choose your place from the list.",
  placeQuery: `q must be 1 to ${PLACE_QUERY_MAX_LENGTH} characters`,
  placeLimit: `limit must be a whole number from 1 to ${PLACE_SUGGESTIONS_MAX_LIMIT}`,
  ageRangeOrder: 'Minimum age cannot be greater than maximum age',
  heightRangeOrder: 'Minimum height cannot be greater than maximum height',
} as const;

/** Codes of profile-service's refusals (profiles, preferences, photos), one per cause. */
export enum ProfileErrorCode {
  ProfileNotFound = 'PROFILE_NOT_FOUND',
  PhotoNotFound = 'PHOTO_NOT_FOUND',
  PhotoRequired = 'PHOTO_REQUIRED',
  /** No file, or not an image of a type we take. */
  NotAnImage = 'NOT_AN_IMAGE',
  ImageTooLargeToProcess = 'IMAGE_TOO_LARGE_TO_PROCESS',
  TooManyPhotos = 'TOO_MANY_PHOTOS',
  PhotoNotUploadedHere = 'PHOTO_NOT_UPLOADED_HERE',
  PhotoOrderMismatch = 'PHOTO_ORDER_MISMATCH',
  /** The client went away before its upload arrived. */
  UploadAborted = 'UPLOAD_ABORTED',
  AgeRangeOrder = 'AGE_RANGE_ORDER',
  HeightRangeOrder = 'HEIGHT_RANGE_ORDER',
}

/**
 * The own profile as `GET/PUT /api/profile/me` answer it: `locationResolved` is null without a
 * location, else whether the place was found (distance matching works only when it was);
 * `locationNote` (PUT only) explains an unknown place. Coordinates are never sent to members.
 */
export interface OwnProfileDto extends ProfileDto {
  locationResolved: boolean | null;
  locationNote?: string;
}

/** Display sizes of an uploaded photo (longest side in pixels; never upscaled). */
export const PHOTO_SIZES = { large: 1200, medium: 600, thumb: 200 } as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

/**
 * Where an uploaded photo is served (public by URL, cached for minutes, ADR 0003); `PhotoDto.url`
 * is the `large` one.
 */
export function photoFileUrl(photoId: string, size: PhotoSize = 'large'): string {
  return `/api/photos/files/${photoId}/${size}.webp`;
}

/** Body of `PUT /api/photos/reorder` and `PUT /api/profile/me/photos/reorder`. */
export interface PhotoReorderRequest {
  photoOrders: { id: string; order: number }[];
}

/** Body of `POST /api/profile/me/photos`: attaches a photo uploaded to Mate, by its URL. */
export interface AttachPhotoRequest {
  url: string;
  isPrimary?: boolean;
}

/** Body of `POST /api/profile/me/complete-onboarding`; no body (or `{}`) skips onboarding. */
export interface CompleteOnboardingRequest {
  name: string;
  age: number;
  gender: string;
  bio: string;
  interests: string[];
  lookingFor: string;
  location: string;
}

/**
 * How the relationship-goal filter of spec 001 §3 reads a profile's `lookingFor` (ADR 0003,
 * "Lifestyle fields and the filter mappings"): the goal values each stored `lookingFor` (both
 * readings) satisfies. The profile has no "marriage" reading; a long-term relationship is the
 * nearest, so it satisfies both. A profile without `lookingFor` satisfies no goal.
 */
export const RELATIONSHIP_GOALS_BY_LOOKING_FOR: Readonly<
  Record<LookingFor, readonly (typeof RELATIONSHIP_GOAL_OPTIONS)[number]['value'][]>
> = {
  relationship: ['long_term', 'marriage'],
  'long-term': ['long_term', 'marriage'],
  casual: ['casual'],
  'short-term': ['casual'],
  friendship: ['friendship'],
  'not-sure': ['not_sure'],
};

export function relationshipGoalsOf(lookingFor: string | null | undefined): readonly string[] {
  return lookingFor ? (RELATIONSHIP_GOALS_BY_LOOKING_FOR[lookingFor as LookingFor] ?? []) : [];
}

const educationKey = (text: string) => text.trim().toLowerCase().replace(/[\u2018\u2019]/g, "'");

/**
 * How the education filter of spec 001 §3 reads the profile's free-text `education` (ADR 0003):
 * an option label or value (any case, typographic apostrophes allowed) is that option's value,
 * any other text is `other`, no text is null (it satisfies no education filter).
 */
export function educationValueOf(
  education: string | null | undefined,
): (typeof EDUCATION_OPTIONS)[number]['value'] | null {
  if (!education || education.trim() === '') return null;
  const key = educationKey(education);
  const found = EDUCATION_OPTIONS.find((o) => educationKey(o.label) === key || o.value === key);
  return found ? found.value : 'other';
}

/** The profile's part of a data export (issue 12; profile-service). */
export interface ProfileExportPart {
  /** The whole profile as the member's own `GET /api/profile/me` shows it, or null when none. */
  profile: Record<string, unknown> | null;
  /** Every photo, with a link the member can download it from (valid while the account exists). */
  photos: { id: string; order: number; isPrimary: boolean; status: string; uploadedAt: string; downloadUrl: string }[];
  /** Match preferences and filter preferences (spec 001 §3), or null when never set. */
  preferences: Record<string, unknown> | null;
  /**
   * What the profile keeps besides the own profile's fields: the coordinates geocoded from the
   * location text (never shown to other members), and whether onboarding was skipped.
   */
  privateFields?: { latitude: number | null; longitude: number | null; onboardingSkipped: boolean } | null;
}
