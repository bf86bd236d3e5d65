// One demo member, made from the run's seed and the member's number alone (see random.mjs):
// account, profile, photo slots and preferences.
import { Rng, uuidFrom } from './random.mjs';
import {
  AGE_BANDS,
  CLOSERS,
  DEALBREAKERS,
  DISTANCE_WEIGHTS,
  EDUCATION_LABELS,
  EDUCATION_VALUES,
  EXERCISE,
  GENDER_WEIGHTS,
  INTEREST_LINES,
  INTERESTS,
  LOOKING_FOR_LINES,
  LOOKING_FOR_ONBOARDING,
  LOOKING_FOR_PROFILE,
  NAMES,
  OCCUPATIONS,
  OPENERS,
  PETS,
  SMOKING_DRINKING,
} from './vocabulary.mjs';

export const EMAIL_DOMAIN = 'demo.mate.local';
export const BIO_MIN = 20;
export const BIO_MAX = 500;
const DAY_MS = 24 * 3600 * 1000;

/** "Zoé O'Brien-Müller" → "zoeobrienmuller": what an email's local part can hold. */
export function asciiSlug(text) {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

export function demoEmail(first, last, n) {
  return `${asciiSlug(first)}.${asciiSlug(last)}.${n}@${EMAIL_DOMAIN}`;
}

function ageOf(rng) {
  const [lo, hi] = rng.weighted(AGE_BANDS.map(([a, b, w]) => [[a, b], w]));
  return rng.int(lo, hi);
}

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

function heightOf(rng, gender) {
  const [mean, sd] = gender === 'male' ? [177, 7.5] : gender === 'female' ? [164, 7] : [170, 9];
  return clamp(Math.round(rng.normal(mean, sd)), 145, 210);
}

function educationOf(rng, age) {
  const value = rng.weighted([
    ['high_school', 16],
    ['some_college', age < 23 ? 30 : 12],
    ['associate', 8],
    ['bachelor', 38],
    ['master', age < 24 ? 4 : 18],
    ['doctorate', age < 27 ? 0 : 4],
    ['other', 4],
  ]);
  return EDUCATION_LABELS[value];
}

const ACTIVE_INTERESTS = new Set(['Fitness', 'Sports', 'Yoga', 'Hiking', 'Dancing']);

/**
 * Lifestyle of the profile (issue 8, stored values of spec 001 §3), each said by about three
 * members in four. Drawn from a stream of its own, so adding it changed no other seeded value; a
 * member who filters out smokers does not smoke, active interests mean more exercise, the Pets
 * interest means a pet.
 */
function lifestyleOf(seed, n, { interests, preferences }) {
  const rng = new Rng('lifestyle', seed, n);
  const said = () => rng.chance(0.75);
  const strictSmoking = preferences.smokingPreference.length > 0;
  const smoking = said()
    ? rng.weighted(strictSmoking ? [['never', 90], ['socially', 10]] : [['never', 62], ['socially', 16], ['regularly', 10], ['prefer_not_to_say', 12]])
    : null;
  const drinking = said()
    ? rng.weighted([['never', 18], ['socially', 58], ['regularly', 14], ['prefer_not_to_say', 10]])
    : null;
  const active = interests.some((i) => ACTIVE_INTERESTS.has(i));
  const exercise = said()
    ? rng.weighted(active ? [['sometimes', 20], ['regularly', 45], ['daily', 35]] : [['never', 14], ['sometimes', 44], ['regularly', 30], ['daily', 12]])
    : null;
  const pets = said()
    ? rng.weighted(interests.includes('Pets') ? [['dog', 40], ['cat', 30], ['other', 10], ['multiple', 20]] : [['none', 48], ['dog', 22], ['cat', 16], ['other', 5], ['multiple', 9]])
    : null;
  return { smoking, drinking, exercise, pets };
}

/** Who a member is interested in, from a plausible mix of orientations. */
function genderPreferenceOf(rng, gender) {
  if (gender === 'male' || gender === 'female') {
    const other = gender === 'male' ? 'female' : 'male';
    const orientation = rng.weighted(
      gender === 'male'
        ? [['straight', 88], ['gay', 6], ['bi', 5], ['open', 1]]
        : [['straight', 84], ['gay', 6], ['bi', 9], ['open', 1]],
    );
    if (orientation === 'straight') return [other];
    if (orientation === 'gay') return [gender];
    if (orientation === 'open') return [];
    const bi = ['male', 'female'];
    if (rng.chance(0.4)) bi.push('non-binary');
    if (rng.chance(0.1)) bi.push('other');
    return bi;
  }
  return rng.weighted([
    [['male', 'female', 'non-binary'], 35],
    [[], 25],
    [['female', 'non-binary'], 15],
    [['male', 'non-binary'], 15],
    [['non-binary', 'other'], 10],
  ]);
}

function ageRangeOf(rng, age, gender) {
  if (rng.chance(0.08)) return [18, 99]; // never changed the defaults
  let min;
  let max;
  if (gender === 'male') {
    min = age - rng.int(4, 12);
    max = age + rng.int(0, 6);
  } else if (gender === 'female') {
    min = age - rng.int(1, 5);
    max = age + rng.int(3, 12);
  } else {
    min = age - rng.int(3, 10);
    max = age + rng.int(3, 10);
  }
  min = clamp(min, 18, 99);
  max = clamp(max, 18, 99);
  if (max < min) max = min;
  return [min, max];
}

const GOALS_BY_LOOKING_FOR = {
  'long-term': ['long_term', 'marriage'],
  relationship: ['long_term', 'marriage'],
  'short-term': ['casual'],
  casual: ['casual'],
  friendship: ['friendship'],
  'not-sure': ['not_sure', 'casual', 'long_term'],
};

/**
 * A row of the preferences table: match preferences (spec 000 §3) and filters (spec 001 §3).
 * @typedef {object} Preferences
 * @property {number} minAge
 * @property {number} maxAge
 * @property {number} maxDistance
 * @property {string[]} genderPreference
 * @property {string[]} interests
 * @property {string[]} dealbreakers
 * @property {number | null} minHeight
 * @property {number | null} maxHeight
 * @property {string[]} educationPreference
 * @property {string[]} relationshipGoalPreference
 * @property {string[]} smokingPreference
 * @property {string[]} drinkingPreference
 * @property {string[]} exercisePreference
 * @property {string[]} petsPreference
 * @property {string[]} requiredInterests
 */

/** Match preferences and, for about a third of members, some of the finer filters. */
function preferencesOf(rng, { age, gender, lookingFor, interests }) {
  const [minAge, maxAge] = ageRangeOf(rng, age, gender);
  /** @type {Preferences} */
  const prefs = {
    minAge,
    maxAge,
    maxDistance: rng.weighted(DISTANCE_WEIGHTS),
    genderPreference: genderPreferenceOf(rng, gender),
    interests: rng.chance(0.25) ? rng.sample(interests, rng.int(1, 3)) : [],
    dealbreakers: rng.chance(0.1) ? rng.sample(DEALBREAKERS, rng.int(1, 2)) : [],
    minHeight: null,
    maxHeight: null,
    educationPreference: [],
    relationshipGoalPreference: [],
    smokingPreference: [],
    drinkingPreference: [],
    exercisePreference: [],
    petsPreference: [],
    requiredInterests: [],
  };
  if (!rng.chance(0.35)) return prefs;
  if (rng.chance(0.4)) prefs.educationPreference = rng.sample(EDUCATION_VALUES.slice(1, 6), rng.int(1, 3));
  if (rng.chance(0.5)) prefs.relationshipGoalPreference = GOALS_BY_LOOKING_FOR[lookingFor].slice();
  if (rng.chance(0.4)) prefs.smokingPreference = rng.chance(0.6) ? ['never'] : ['never', 'socially'];
  if (rng.chance(0.3)) prefs.drinkingPreference = rng.sample(SMOKING_DRINKING.slice(0, 3), rng.int(1, 2));
  if (rng.chance(0.25)) prefs.exercisePreference = rng.sample(EXERCISE.slice(1), rng.int(1, 3));
  if (rng.chance(0.15)) prefs.petsPreference = rng.sample(PETS.slice(1), rng.int(1, 2));
  if (rng.chance(0.2)) {
    const minHeight = rng.int(150, 175);
    prefs.minHeight = minHeight;
    prefs.maxHeight = rng.int(Math.max(minHeight, 178), 205);
  }
  if (rng.chance(0.2)) prefs.requiredInterests = rng.sample(interests, rng.int(1, 2));
  return prefs;
}

function fill(template, vars) {
  return template.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');
}

/** A bio of 2–4 template sentences: an opener, an interest or two, what they look for, a closer. */
function bioOf(rng, { occupation, interests, lookingFor, cityName }) {
  const hobby = rng.pick(interests);
  const vars = {
    occupation: occupation ?? 'Dreamer',
    occupationLower: (occupation ?? 'dreamer').toLowerCase(),
    hobby,
    hobbyLower: hobby.toLowerCase(),
    city: cityName,
  };
  const sentences = [fill(rng.pick(OPENERS), vars)];
  for (const interest of rng.sample(interests, rng.int(1, 2))) sentences.push(rng.pick(INTEREST_LINES[interest]));
  if (rng.chance(0.6)) sentences.push(rng.pick(LOOKING_FOR_LINES[lookingFor]));
  if (rng.chance(0.5)) sentences.push(fill(rng.pick(CLOSERS), vars));
  let bio = sentences.join(' ');
  while (bio.length > BIO_MAX && sentences.length > 1) {
    sentences.pop();
    bio = sentences.join(' ');
  }
  return bio.length >= BIO_MIN ? bio : `${bio} Say hi, I do not bite.`;
}

/** How many photos a member has (1–4) and what each shows: the first is always a portrait. */
function photoKindsOf(rng) {
  const count = rng.weighted([[1, 20], [2, 30], [3, 30], [4, 20]]);
  const kinds = ['portrait'];
  for (let i = 1; i < count; i++) {
    kinds.push(rng.weighted([['portrait', 40], ['landscape', 15], ['city', 15], ['beach', 15], ['abstract', 15]]));
  }
  return kinds;
}

/**
 * Member number `n` of the population of `seed`. `cities` are the resolved cities (with a
 * `weight`), `now` the run's clock (timestamps lie in the 18 months before it).
 */
export function memberAt(seed, n, { cities, now }) {
  const rng = new Rng('member', seed, n);
  const city = rng.weighted(cities.map((c) => [c, c.weight]));
  const gender = rng.weighted(GENDER_WEIGHTS);
  const names = NAMES[city.region];
  const firstPool =
    gender === 'male' ? names.male : gender === 'female' ? names.female : rng.chance(0.7) ? NAMES.neutral : rng.chance(0.5) ? names.male : names.female;
  const firstName = rng.pick(firstPool);
  const lastName = rng.pick(names.last);
  const age = ageOf(rng);
  const lookingFor = rng.chance(0.55) ? rng.weighted(LOOKING_FOR_ONBOARDING) : rng.weighted(LOOKING_FOR_PROFILE);
  const interests = rng.sample(INTERESTS, rng.weighted([[2, 8], [3, 18], [4, 22], [5, 20], [6, 15], [7, 10], [8, 7]]));
  const occupation = rng.chance(0.92) ? (age >= 66 && rng.chance(0.5) ? 'Retired' : rng.pick(OCCUPATIONS)) : null;
  const education = rng.chance(0.85) ? educationOf(rng, age) : null;
  const height = rng.chance(0.88) ? heightOf(rng, gender) : null;
  const location = rng.pick(city.texts);
  const bio = bioOf(rng, { occupation, interests, lookingFor, cityName: location.split(',')[0] });
  const preferences = preferencesOf(rng, { age, gender, lookingFor, interests });
  const lifestyle = lifestyleOf(seed, n, { interests, preferences });

  // Joined within the last 18 months, more of them recently; verified within the hour; onboarding
  // finished within a few days (never in the future).
  const joinedAgo = Math.floor(rng.next() ** 2 * 540 * DAY_MS);
  const createdAt = new Date(now - joinedAgo - rng.int(0, DAY_MS));
  const verifiedAt = new Date(Math.min(now, createdAt.getTime() + rng.int(2, 60) * 60_000));
  const updatedAt = new Date(Math.min(now, verifiedAt.getTime() + rng.int(5, 4 * 24 * 60) * 60_000));

  const userId = uuidFrom('user', seed, n);
  // Portraits present like the member's gender (either way for other genders).
  const presentation = gender === 'female' ? 'feminine' : gender === 'male' ? 'masculine' : null;
  const photos = photoKindsOf(rng).map((kind, order) => ({
    id: uuidFrom('photo', seed, n, order),
    kind,
    presentation,
    order,
    isPrimary: order === 0,
    createdAt: new Date(Math.min(now, verifiedAt.getTime() + (order + 1) * rng.int(1, 30) * 60_000)),
  }));

  return {
    n,
    userId,
    profileId: uuidFrom('profile', seed, n),
    email: demoEmail(firstName, lastName, n),
    accountName: `${firstName} ${lastName}`,
    name: firstName,
    age,
    gender,
    bio,
    location,
    cityKey: city.key,
    lat: city.lat,
    lng: city.lng,
    height,
    occupation,
    education,
    lookingFor,
    interests,
    ...lifestyle,
    photos,
    preferences,
    createdAt,
    verifiedAt,
    updatedAt,
  };
}
