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

/** Profile as the owner reads it (spec 000 §3), camelCase. */
export interface ProfileDto {
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
