// The simulated population: members with the candidate table's attributes (ScoringProfile) and
// the hard rules of the candidate query, made from a seed. Tastes are not here: they are hidden
// (tools/seed/lib/taste.cjs) and only show through the swipes they produce.
import { PROFILE_INTERESTS, relationshipGoalsOf } from '@mate/contracts';
import { distanceKm, SeededRandom, type ScoringProfile } from '@mate/matching-model';

/** A simulated member: what the model may read, plus the interested-in list the hard rules use. */
export interface SimMember extends ScoringProfile {
  genderPreference: readonly string[];
}

/** City centres the members live around (within about 15 km). */
const CITIES = [
  { lat: 40.71, lng: -74.01, weight: 4 },
  { lat: 51.51, lng: -0.13, weight: 3 },
  { lat: 48.86, lng: 2.35, weight: 2 },
];
const LOOKING_FOR = ['relationship', 'long-term', 'casual', 'short-term', 'friendship', 'not-sure'];
const SMOKING = ['never', 'never', 'never', 'socially', 'regularly'];
const DRINKING = ['never', 'socially', 'socially', 'socially', 'regularly'];
const EXERCISE = ['never', 'sometimes', 'regularly', 'daily'];
const PETS = ['none', 'none', 'dog', 'cat', 'other', 'multiple'];
const GENDERS: [string, number][] = [
  ['male', 47],
  ['female', 47],
  ['non-binary', 4],
  ['other', 2],
];

function pick<T>(rng: SeededRandom, list: readonly T[]): T {
  return list[Math.floor(rng.next() * list.length)];
}

function weighted<T>(rng: SeededRandom, entries: readonly [T, number][]): T {
  let r = rng.next() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries[entries.length - 1][0];
}

const maybe = <T>(rng: SeededRandom, value: T): T | null => (rng.next() < 0.75 ? value : null);

/** `k` distinct items of `list` in random order. */
function sample<T>(rng: SeededRandom, list: readonly T[], k: number): T[] {
  const order = rng.shuffle(Uint32Array.from(list, (_, i) => i));
  return Array.from(order.subarray(0, k), (i) => list[i]);
}

function interestedIn(rng: SeededRandom, gender: string): string[] {
  const r = rng.next();
  if (gender === 'male') return r < 0.88 ? ['female'] : r < 0.95 ? ['male'] : ['female', 'male'];
  if (gender === 'female') return r < 0.85 ? ['male'] : r < 0.92 ? ['female'] : ['female', 'male'];
  return r < 0.5 ? [] : ['non-binary', 'other', 'female', 'male'].filter(() => rng.next() < 0.6);
}

/** `count` members from `seed`: ages, genders and orientations, age ranges, places, interests, habits. */
export function makePopulation(seed: string, count: number): SimMember[] {
  return Array.from({ length: count }, (_, n) => {
    const rng = new SeededRandom(`member:${seed}:${n}`);
    const city = weighted(
      rng,
      CITIES.map((c) => [c, c.weight] as [(typeof CITIES)[number], number]),
    );
    const gender = weighted(rng, GENDERS);
    const age = Math.round(Math.min(65, Math.max(18, rng.normal(31, 8))));
    const below = Math.round(3 + rng.next() * 7);
    const above = Math.round(3 + rng.next() * 9);
    const interests = sample(rng, PROFILE_INTERESTS, 2 + Math.floor(rng.next() * 6));
    const angle = rng.next() * 2 * Math.PI;
    const radiusKm = rng.next() * 15;
    return {
      userId: `member-${String(n).padStart(5, '0')}`,
      age,
      genderGroup: gender,
      genderPreference: interestedIn(rng, gender),
      goals: relationshipGoalsOf(pick(rng, LOOKING_FOR)),
      interests,
      height: Math.round(rng.normal(gender === 'male' ? 177 : 165, 8)),
      educationValue: maybe(rng, pick(rng, ['high_school', 'bachelor', 'bachelor', 'master', 'doctorate'])),
      smoking: maybe(rng, pick(rng, SMOKING)),
      drinking: maybe(rng, pick(rng, DRINKING)),
      exercise: maybe(rng, pick(rng, EXERCISE)),
      pets: maybe(rng, pick(rng, PETS)),
      lat: city.lat + (radiusKm / 111) * Math.sin(angle),
      lng: city.lng + (radiusKm / (111 * Math.cos(city.lat * (Math.PI / 180)))) * Math.cos(angle),
      photos: Array.from({ length: 1 + Math.floor(rng.next() * 5) }, () => null),
      minAge: Math.max(18, age - below),
      maxAge: age + above,
      maxDistance: pick(rng, [25, 50, 50, 100]),
      minHeight: null,
      maxHeight: null,
      preferredInterests: rng.next() < 0.4 ? interests.slice(0, 2) : [],
    };
  });
}

function accepts(a: SimMember, b: SimMember, km: number): boolean {
  return (
    b.age !== null &&
    b.age >= a.minAge &&
    b.age <= a.maxAge &&
    (a.genderPreference.length === 0 ||
      (b.genderGroup !== null && a.genderPreference.includes(b.genderGroup))) &&
    km <= a.maxDistance
  );
}

/** For each member, everyone who passes the hard rules both ways (the candidate query's pool). */
export function eligiblePools(members: readonly SimMember[]): Map<string, SimMember[]> {
  const pools = new Map<string, SimMember[]>(members.map((m) => [m.userId, []]));
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const a = members[i];
      const b = members[j];
      const km = distanceKm(a, b) ?? Infinity;
      if (accepts(a, b, km) && accepts(b, a, km)) {
        pools.get(a.userId)?.push(b);
        pools.get(b.userId)?.push(a);
      }
    }
  }
  return pools;
}
