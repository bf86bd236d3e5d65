import type { ScoringProfile } from './profile';

/**
 * The pairwise features of "A looks at B" (ARCHITECTURE §5), in the order of the model's weights.
 * Each is scaled to about [-1, 1] so one learning rate and one L2 strength suit them all; an
 * unknown value reads 0, which leaves the decision to the other features.
 */
export const FEATURE_NAMES = [
  /** Interests both list, divided by 5. */
  'sharedInterests',
  /** Jaccard similarity of the two interest lists. */
  'interestJaccard',
  /** Share of A's preferred interests (preferences) that B lists. */
  'preferredInterests',
  /** 1 when B's age is the centre of A's range, 0 at its edges, below 0 outside. */
  'ageFit',
  /** |age A - age B| / 10. */
  'ageGap',
  /** Distance / A's maximum distance (0 when unknown). */
  'distance',
  /** Either location unknown. */
  'distanceUnknown',
  /** 1 when their relationship goals overlap, -1 when both said and they do not, 0 otherwise. */
  'goals',
  /** Lifestyle compatibility, each in [-1, 1]: 1 the same answer, -1 opposite ends. */
  'smoking',
  'drinking',
  'exercise',
  'pets',
  /** Same education level. */
  'education',
  /** 1 inside A's height range, -1 outside, 0 without a range or a height. */
  'heightFit',
  /** B's photo count / 6 (at most 1). */
  'photos',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;

const EARTH_RADIUS_KM = 6371;
const RAD = Math.PI / 180;

/** Great-circle distance in km, or null when either place is unknown. */
export function distanceKm(a: ScoringProfile, b: ScoringProfile): number | null {
  if (a.lat === null || a.lng === null || b.lat === null || b.lng === null) return null;
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function sharedCount(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const x of a) if (b.includes(x)) n++;
  return n;
}

/** Ordinal scales of spec 001 §3's lifestyle values ('prefer_not_to_say' is not on the scale). */
const SCALES: Record<'smoking' | 'drinking' | 'exercise', Record<string, number>> = {
  smoking: { never: 0, socially: 1, regularly: 2 },
  drinking: { never: 0, socially: 1, regularly: 2 },
  exercise: { never: 0, sometimes: 1, regularly: 2, daily: 3 },
};
const SCALE_SPAN = { smoking: 2, drinking: 2, exercise: 3 } as const;

function ordinalFit(field: 'smoking' | 'drinking' | 'exercise', a: string | null, b: string | null): number {
  const x = a === null ? undefined : SCALES[field][a];
  const y = b === null ? undefined : SCALES[field][b];
  if (x === undefined || y === undefined) return 0;
  return 1 - (2 * Math.abs(x - y)) / SCALE_SPAN[field];
}

/** Pets: the same answer fits, a pet owner and 'none' clash, two different pets half fit. */
function petsFit(a: string | null, b: string | null): number {
  if (a === null || b === null) return 0;
  if (a === b) return 1;
  if (a === 'none' || b === 'none') return -1;
  return 0.5;
}

function goalsFit(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  return sharedCount(a, b) > 0 ? 1 : -1;
}

function ageFit(a: ScoringProfile, b: ScoringProfile): number {
  if (b.age === null) return 0;
  const centre = (a.minAge + a.maxAge) / 2;
  const halfWidth = Math.max(1, (a.maxAge - a.minAge) / 2);
  return Math.max(-1, 1 - Math.abs(b.age - centre) / halfWidth);
}

function heightFit(a: ScoringProfile, b: ScoringProfile): number {
  if (b.height === null || (a.minHeight === null && a.maxHeight === null)) return 0;
  const inside =
    (a.minHeight === null || b.height >= a.minHeight) && (a.maxHeight === null || b.height <= a.maxHeight);
  return inside ? 1 : -1;
}

/**
 * Writes the features of "A looks at B" into `out` (reused by hot loops: the fit and the bench
 * score millions of pairs) and returns it.
 */
export function pairFeatures(
  a: ScoringProfile,
  b: ScoringProfile,
  out = new Float64Array(FEATURE_COUNT),
): Float64Array {
  const shared = sharedCount(a.interests, b.interests);
  const union = a.interests.length + b.interests.length - shared;
  const km = distanceKm(a, b);
  out[0] = shared / 5;
  out[1] = union > 0 ? shared / union : 0;
  out[2] =
    a.preferredInterests.length > 0
      ? sharedCount(a.preferredInterests, b.interests) / a.preferredInterests.length
      : 0;
  out[3] = ageFit(a, b);
  out[4] = a.age !== null && b.age !== null ? Math.abs(a.age - b.age) / 10 : 0;
  out[5] = km === null ? 0 : Math.min(3, km / Math.max(1, a.maxDistance));
  out[6] = km === null ? 1 : 0;
  out[7] = goalsFit(a.goals, b.goals);
  out[8] = ordinalFit('smoking', a.smoking, b.smoking);
  out[9] = ordinalFit('drinking', a.drinking, b.drinking);
  out[10] = ordinalFit('exercise', a.exercise, b.exercise);
  out[11] = petsFit(a.pets, b.pets);
  out[12] = a.educationValue !== null && a.educationValue === b.educationValue ? 1 : 0;
  out[13] = heightFit(a, b);
  out[14] = Math.min(6, b.photos.length) / 6;
  return out;
}
