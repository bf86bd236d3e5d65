import type { ProfileUpdateRequest } from '@mate/api-client';
import {
  BIO_MAX_LENGTH,
  DRINKING_VALUES,
  EXERCISE_VALUES,
  PETS_VALUES,
  SMOKING_VALUES,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  PROFILE_MAX_AGE,
  PROFILE_MIN_AGE,
  type ProfileDto,
} from '@mate/contracts';

/** What the Edit Profile form holds: text as typed, parsed on save. */
export interface ProfileFormValues {
  name: string;
  age: string;
  gender: string;
  bio: string;
  location: string;
  height: string;
  lookingFor: string;
  occupation: string;
  education: string;
  interests: string[];
  /** Lifestyle (spec 001 §3): the stored value, '' for 'Not set'. */
  smoking: string;
  drinking: string;
  exercise: string;
  pets: string;
}

export type ProfileFormErrors = Partial<Record<'age' | 'height' | 'bio', string>>;

export function formValuesOf(profile: ProfileDto): ProfileFormValues {
  return {
    name: profile.name ?? '',
    age: profile.age === null ? '' : String(profile.age),
    gender: profile.gender ?? '',
    bio: profile.bio ?? '',
    location: profile.location ?? '',
    height: profile.height === null ? '' : String(profile.height),
    lookingFor: profile.lookingFor ?? '',
    occupation: profile.occupation ?? '',
    education: profile.education ?? '',
    interests: [...profile.interests],
    smoking: profile.smoking ?? '',
    drinking: profile.drinking ?? '',
    exercise: profile.exercise ?? '',
    pets: profile.pets ?? '',
  };
}

/** Spec 000 §5: a non-numeric value becomes unset. */
export function parseWholeNumber(value: string): number | null {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? null : parsed;
}

const blankToNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** A lifestyle select's value as the API takes it: a stored value of spec 001 §3, or null for 'Not set'. */
function storedOrNull<T extends string>(values: readonly T[], value: string): T | null {
  return (values as readonly string[]).includes(value) ? (value as T) : null;
}

/** Spec 000 §5: no required fields; age 18–120, height 100–250 cm, bio at most 500 characters. */
export function validateProfileForm(values: ProfileFormValues): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  const age = parseWholeNumber(values.age);
  if (age !== null && (age < PROFILE_MIN_AGE || age > PROFILE_MAX_AGE)) {
    errors.age = `Age must be between ${PROFILE_MIN_AGE} and ${PROFILE_MAX_AGE}`;
  }
  const height = parseWholeNumber(values.height);
  if (height !== null && (height < HEIGHT_MIN_CM || height > HEIGHT_MAX_CM)) {
    errors.height = `Height must be between ${HEIGHT_MIN_CM} and ${HEIGHT_MAX_CM} cm`;
  }
  if (values.bio.length > BIO_MAX_LENGTH) errors.bio = `Bio must be at most ${BIO_MAX_LENGTH} characters`;
  return errors;
}

/** The PUT body: every field, empty ones as null (which clears them). */
export function profileUpdateOf(values: ProfileFormValues): ProfileUpdateRequest {
  return {
    name: blankToNull(values.name),
    age: parseWholeNumber(values.age),
    gender: blankToNull(values.gender),
    bio: blankToNull(values.bio),
    location: blankToNull(values.location),
    height: parseWholeNumber(values.height),
    lookingFor: blankToNull(values.lookingFor),
    occupation: blankToNull(values.occupation),
    education: blankToNull(values.education),
    interests: values.interests,
    smoking: storedOrNull(SMOKING_VALUES, values.smoking),
    drinking: storedOrNull(DRINKING_VALUES, values.drinking),
    exercise: storedOrNull(EXERCISE_VALUES, values.exercise),
    pets: storedOrNull(PETS_VALUES, values.pets),
  };
}
