import {
  educationValueOf,
  relationshipGoalsOf,
  type PreferencesUpdatedPayload,
  type ProfileUpdatedPayload,
} from '@mate/contracts';
import { genderGroupOf, genderPreferenceOf } from './gender-groups';

/** A candidate row's columns by name, as one event writes them (CandidateRepository's upsert). */
export type CandidateColumns = Record<string, unknown>;

/** A number within [-limit, limit] (NaN and infinities are not). */
const within = (n: unknown, limit: number): n is number =>
  typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit;
const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/**
 * The profile part of a candidate row, every field from one profile.updated (the event carries
 * the whole profile, read by the consumer against its class). Fields an older envelope lacks
 * (lifestyle, bio, occupation, photos) read as not said. A place counts only with both
 * coordinates, on the globe: otherwise the distance rules are off.
 */
export function profileColumns(p: ProfileUpdatedPayload): CandidateColumns {
  // Coordinates off the globe would make distances meaningless (or fail the distance function).
  const placeKnown = within(p.latitude, 90) && within(p.longitude, 180);
  return {
    name: p.name,
    age: p.age,
    gender: p.gender,
    gender_group: genderGroupOf(p.gender),
    looking_for: p.lookingFor,
    goals: [...relationshipGoalsOf(p.lookingFor)],
    interests: p.interests,
    height: p.height,
    education: p.education,
    education_value: educationValueOf(p.education),
    smoking: p.smoking ?? null,
    drinking: p.drinking ?? null,
    exercise: p.exercise ?? null,
    pets: p.pets ?? null,
    bio: p.bio ?? null,
    occupation: p.occupation ?? null,
    location_text: p.locationText,
    lat: placeKnown ? p.latitude : null,
    lng: placeKnown ? p.longitude : null,
    profile_picture: p.profilePicture,
    photos: JSON.stringify(p.photos ?? []),
    is_verified: p.isVerified,
    onboarding_completed: p.onboardingCompleted,
    has_photo: p.hasPhoto,
    profile_updated_at: p.updatedAt,
  };
}

/**
 * The preference part of a candidate row, every field from one preferences.updated: the match
 * preferences and the filter preferences of spec 001 §3 (`filters`, read defensively: a missing
 * or malformed list is empty, i.e. everyone). Gender lists are kept in the interested-in reading.
 */
export function preferenceColumns(p: PreferencesUpdatedPayload): CandidateColumns {
  const f = p.filters ?? {};
  return {
    min_age: p.minAge,
    max_age: p.maxAge,
    max_distance: p.maxDistance,
    gender_preference: genderPreferenceOf(p.genderPreference),
    min_height: intOrNull(f['minHeight']),
    max_height: intOrNull(f['maxHeight']),
    education_preference: stringList(f['educationPreference']),
    relationship_goal_preference: stringList(f['relationshipGoalPreference']),
    smoking_preference: stringList(f['smokingPreference']),
    drinking_preference: stringList(f['drinkingPreference']),
    exercise_preference: stringList(f['exercisePreference']),
    pets_preference: stringList(f['petsPreference']),
    required_interests: stringList(f['requiredInterests']),
    preferred_interests: stringList(f['interests']),
    dealbreakers: stringList(f['dealbreakers']),
    preferences_updated_at: p.updatedAt,
  };
}
