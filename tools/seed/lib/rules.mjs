// The hard rules of matching (issue 8) between two seeded members, as matching-service applies
// them both ways in its candidate query: the seeded swipe history only holds pairs that could
// have met in Discover. Written for seeded members, who always have an age, a gender and
// coordinates (city centres); the mappings mirror libs/contracts/src/lib/profile.ts and the
// seed tests check them against the contracts.
import { EDUCATION_LABELS } from './vocabulary.mjs';

/** The interested-in reading of a profile gender: 'prefer-not-to-say' reads as 'other'. */
export function genderGroupOf(gender) {
  if (!gender) return null;
  return gender === 'prefer-not-to-say' ? 'other' : gender;
}

/** contracts' RELATIONSHIP_GOALS_BY_LOOKING_FOR: the goal values each stored lookingFor satisfies. */
export const GOALS_BY_LOOKING_FOR = {
  relationship: ['long_term', 'marriage'],
  'long-term': ['long_term', 'marriage'],
  casual: ['casual'],
  'short-term': ['casual'],
  friendship: ['friendship'],
  'not-sure': ['not_sure'],
};

const EDUCATION_BY_LABEL = new Map(Object.entries(EDUCATION_LABELS).map(([value, label]) => [label.toLowerCase(), value]));

/** contracts' educationValueOf for the labels the seeder writes: option value, 'other' for other text, null for none. */
export function educationValueOf(education) {
  if (!education || !education.trim()) return null;
  return EDUCATION_BY_LABEL.get(education.trim().toLowerCase()) ?? 'other';
}

// The mean earth radius matching-service's great_circle_km uses.
const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg) => (deg * Math.PI) / 180;

/** Great-circle distance in km between two members' city coordinates. */
export function distanceKm(a, b) {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** An empty filter list accepts everyone; a non-empty one needs an answer in it (no answer fails). */
const allows = (list, value) => list.length === 0 || (value !== null && value !== undefined && list.includes(value));

/**
 * Whether `a`'s preferences accept `b` at `km` apart: age range, interested-in genders, maximum
 * distance, and every filter of spec 001 §3 (education, relationship goal, smoking, drinking,
 * exercise, pets, height range, required interests).
 */
export function accepts(a, b, km) {
  const p = a.preferences;
  if (b.age < p.minAge || b.age > p.maxAge) return false;
  if (!allows(p.genderPreference.map(genderGroupOf), genderGroupOf(b.gender))) return false;
  if (km > p.maxDistance) return false;
  if (!allows(p.educationPreference, educationValueOf(b.education))) return false;
  const goals = GOALS_BY_LOOKING_FOR[b.lookingFor] ?? [];
  if (p.relationshipGoalPreference.length && !p.relationshipGoalPreference.some((g) => goals.includes(g))) return false;
  if (!allows(p.smokingPreference, b.smoking)) return false;
  if (!allows(p.drinkingPreference, b.drinking)) return false;
  if (!allows(p.exercisePreference, b.exercise)) return false;
  if (!allows(p.petsPreference, b.pets)) return false;
  if (p.minHeight !== null && (b.height === null || b.height < p.minHeight)) return false;
  if (p.maxHeight !== null && (b.height === null || b.height > p.maxHeight)) return false;
  return p.requiredInterests.every((i) => b.interests.includes(i));
}

/** Both members' rules accept the other (never oneself). */
export function mutuallyEligible(a, b) {
  if (a.userId === b.userId) return false;
  const km = distanceKm(a, b);
  return accepts(a, b, km) && accepts(b, a, km);
}
