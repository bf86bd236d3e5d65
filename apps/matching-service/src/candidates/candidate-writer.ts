import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  educationValueOf,
  relationshipGoalsOf,
  type PreferencesUpdatedPayload,
  type ProfileUpdatedPayload,
  type UserSuspendedPayload,
  type UserUnsuspendedPayload,
} from '@mate/contracts';
import { genderGroupOf, genderPreferenceOf } from './gender-groups';

type Columns = Record<string, unknown>;

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
export function profileColumns(p: ProfileUpdatedPayload): Columns {
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
export function preferenceColumns(p: PreferencesUpdatedPayload): Columns {
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

/**
 * Writes candidate rows from the two whole-state events. Each event writes its own part of the
 * row in full and leaves the other part alone; whichever arrives first creates the row with the
 * table's defaults for the other part (a member with no preferences has the spec's defaults).
 * The event consumer has already checked that the event is newer than what was applied.
 */
@Injectable()
export class CandidateWriter {
  applyProfile(manager: EntityManager, payload: ProfileUpdatedPayload): Promise<void> {
    return this.upsert(manager, payload.userId, profileColumns(payload));
  }

  applyPreferences(manager: EntityManager, payload: PreferencesUpdatedPayload): Promise<void> {
    return this.upsert(manager, payload.userId, preferenceColumns(payload));
  }

  /**
   * user.suspended / user.unsuspended (auth-service, the whole suspension state): a suspended
   * member is not suggestible (the generated column) and likes and passes on them are refused;
   * their swipes and matches stay, so an unsuspend restores everything.
   */
  applySuspension(
    manager: EntityManager,
    payload: UserSuspendedPayload | UserUnsuspendedPayload,
  ): Promise<void> {
    return this.upsert(manager, payload.userId, { suspended: payload.suspended });
  }

  private async upsert(manager: EntityManager, userId: string, columns: Columns): Promise<void> {
    const names = Object.keys(columns);
    const values = names.map((n, i) => (n === 'photos' ? `$${i + 2}::jsonb` : `$${i + 2}`));
    await manager.query(
      `INSERT INTO candidate (user_id, ${names.join(', ')}) VALUES ($1, ${values.join(', ')})
       ON CONFLICT (user_id) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}, updated_at = now()`,
      [userId, ...names.map((n) => columns[n])],
    );
  }
}
