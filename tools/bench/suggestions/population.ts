// The bench population of `npm run bench:suggestions`: a million candidate rows written straight
// into matching-service's `candidate` table with one INSERT … SELECT over generate_series (a few
// seconds of PostgreSQL work instead of a million events), plus a background swipe history. Values
// follow the demo population's mix (tools/seed/README.md): ages skewed to the twenties and thirties,
// ≈ 46/46 % men and women, ≈ 86 % straight, an age range around one's own, 50 km most often, a
// third with finer filters of spec 001 §3 (education, goals, lifestyle, heights, interests).
import type { Client } from 'pg';

/** A place members live in: every member of a place has its centre's coordinates (city-level). */
export interface Place {
  name: string;
  lat: number;
  lng: number;
  /** Members numbered first..first+size-1 live here. */
  first: number;
  size: number;
  dense: boolean;
}

/** Big cities far apart: most members live in one of them. */
const DENSE_CITIES = [
  { name: 'New York, NY', lat: 40.7128, lng: -74.006 },
  { name: 'London, UK', lat: 51.5074, lng: -0.1278 },
  { name: 'Los Angeles, CA', lat: 34.0522, lng: -118.2437 },
  { name: 'Paris, France', lat: 48.8566, lng: 2.3522 },
];
/** Small towns on a grid about 40 km apart (Montana/Wyoming-like), so distance limits reach neighbours. */
const TOWN_ROWS = 10;
const TOWN_COLUMNS = 20;
const TOWN_ORIGIN = { lat: 42, lng: -110 };
const TOWN_STEP = { lat: 0.36, lng: 0.5 };

/**
 * The places of a population of `members`: 80 % in the four cities, 20 % in 200 towns (1,000 each
 * at a million members).
 */
export function placesOf(members: number): Place[] {
  const towns = TOWN_ROWS * TOWN_COLUMNS;
  const perCity = Math.floor((members * 0.8) / DENSE_CITIES.length);
  const perTown = Math.floor((members - perCity * DENSE_CITIES.length) / towns);
  const places: Place[] = [];
  let first = 1;
  for (const city of DENSE_CITIES) {
    places.push({ ...city, first, size: perCity, dense: true });
    first += perCity;
  }
  for (let i = 0; i < towns; i++) {
    const row = Math.floor(i / TOWN_COLUMNS);
    const col = i % TOWN_COLUMNS;
    const size = i === towns - 1 ? members - first + 1 : perTown;
    places.push({
      name: `Town ${i + 1}, MT`,
      lat: TOWN_ORIGIN.lat + row * TOWN_STEP.lat,
      lng: TOWN_ORIGIN.lng + col * TOWN_STEP.lng,
      first,
      size,
      dense: false,
    });
    first += size;
  }
  return places;
}

/** A version-4-shaped UUID from an MD5 (the service accepts only RFC 4122 ids in its paths). */
const uuidSql = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The user id of member `n` (deterministic, so the bench can name members without reading them). */
export const userIdSql = (n: string) => uuidSql(`'bench-member-' || ${n}`);

const INTERESTS = [
  'Travel', 'Music', 'Fitness', 'Cooking', 'Art', 'Photography', 'Reading', 'Gaming', 'Sports', 'Movies', 'Dancing',
  'Hiking', 'Technology', 'Fashion', 'Food', 'Pets', 'Yoga', 'Writing', 'Coffee', 'Wine', 'Nature',
];
const sqlArray = (values: readonly (string | number)[]) =>
  `ARRAY[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(',')}]`;
/** One element of a literal array, chosen by a random number r in [0, 1). */
const pick = (values: readonly (string | number)[], r: string) => `(${sqlArray(values)})[1 + floor(${r} * ${values.length})::int]`;

/**
 * Writes the candidate rows. One statement; `setseed` makes the population the same on every run
 * (pool_key's default random() included).
 */
export async function insertCandidates(db: Client, places: Place[]): Promise<void> {
  const placeRows = places.map((p) => `(${p.first}, ${p.first + p.size - 1}, ${p.lat}, ${p.lng}, '${p.name}')`).join(',');
  await db.query('SELECT setseed(0.42)');
  await db.query(`
    INSERT INTO candidate (user_id, name, age, gender, gender_group, looking_for, goals, interests, height, education,
      education_value, smoking, drinking, exercise, pets, bio, occupation, location_text, lat, lng, profile_picture,
      photos, is_verified, onboarding_completed, has_photo, min_age, max_age, max_distance, gender_preference,
      min_height, max_height, education_preference, relationship_goal_preference, smoking_preference,
      drinking_preference, exercise_preference, pets_preference, required_interests, preferred_interests,
      profile_updated_at, preferences_updated_at)
    SELECT user_id, 'Member ' || g, age, gender,
      CASE gender WHEN 'prefer-not-to-say' THEN 'other' ELSE gender END,
      looking_for,
      CASE looking_for WHEN 'relationship' THEN '{long_term,marriage}'::text[] WHEN 'long-term' THEN '{long_term,marriage}'
        WHEN 'casual' THEN '{casual}' WHEN 'short-term' THEN '{casual}' WHEN 'friendship' THEN '{friendship}'
        ELSE '{not_sure}' END,
      interests, height, education_value, education_value,
      smoking, drinking, exercise, pets,
      'Bench member ' || g || ', here for the numbers.', 'Engineer', place_name, lat, lng,
      '/api/photos/files/' || photo_id || '/large.webp',
      jsonb_build_array(jsonb_build_object('id', photo_id, 'url', '/api/photos/files/' || photo_id || '/large.webp')),
      true, true, true,
      CASE WHEN r_range < 0.08 THEN 18 ELSE greatest(18, age - CASE gender WHEN 'male' THEN 4 + floor(r_lo * 9) ELSE 1 + floor(r_lo * 6) END)::int END,
      CASE WHEN r_range < 0.08 THEN 99 ELSE least(99, age + CASE gender WHEN 'female' THEN 3 + floor(r_hi * 10) ELSE 1 + floor(r_hi * 7) END)::int END,
      ${pick([5, 10, 15, 20, 25, 30, 40, 50, 50, 50, 50, 50, 75, 100, 100, 150, 200], 'r_distance')},
      CASE
        WHEN gender IN ('male', 'female') THEN
          CASE WHEN r_orientation < 0.86 THEN ARRAY[CASE gender WHEN 'male' THEN 'female' ELSE 'male' END]
               WHEN r_orientation < 0.92 THEN ARRAY[gender]
               WHEN r_orientation < 0.99 THEN '{male,female}'::text[]
               ELSE '{}'::text[] END
        ELSE
          CASE WHEN r_orientation < 0.35 THEN '{male,female,non-binary}'::text[] WHEN r_orientation < 0.6 THEN '{}'
               WHEN r_orientation < 0.75 THEN '{female,non-binary}' WHEN r_orientation < 0.9 THEN '{male,non-binary}'
               ELSE '{non-binary,other}' END
      END,
      CASE WHEN picky AND random() < 0.2 THEN 150 + floor(random() * 25)::int END,
      CASE WHEN picky AND random() < 0.2 THEN 180 + floor(random() * 25)::int END,
      CASE WHEN picky AND random() < 0.4 THEN ${pick(["{bachelor,master}", "{bachelor,master,doctorate}", "{some_college,associate,bachelor}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.5 THEN ${pick(["{long_term,marriage}", "{casual}", "{friendship}", "{not_sure,casual}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.4 THEN ${pick(["{never}", "{never,socially}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.3 THEN ${pick(["{never,socially}", "{socially}", "{socially,regularly}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.25 THEN ${pick(["{regularly,daily}", "{sometimes,regularly,daily}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.15 THEN ${pick(["{dog}", "{cat}", "{dog,cat}", "{none}"], 'random()')}::text[] ELSE '{}' END,
      CASE WHEN picky AND random() < 0.2 AND cardinality(interests) > 0 THEN interests[1:1] ELSE '{}' END,
      CASE WHEN random() < 0.25 THEN interests[1:2] ELSE '{}' END,
      now() - random() * interval '500 days', now() - random() * interval '500 days'
    FROM (
      SELECT g, place_name, lat, lng,
        ${userIdSql('g')} AS user_id, ${uuidSql(`'bench-photo-' || g`)} AS photo_id,
        gender, age, r_range, r_lo, r_hi, r_distance, r_orientation, picky,
        ${pick(['long-term', 'short-term', 'friendship', 'casual', 'not-sure', 'relationship', 'relationship'], 'random()')} AS looking_for,
        ARRAY(SELECT i FROM unnest(${sqlArray(INTERESTS)}) WITH ORDINALITY AS t(i, k) WHERE (interest_bits >> (k::int - 1)) & 1 = 1) AS interests,
        CASE WHEN random() < 0.88 THEN CASE gender WHEN 'male' THEN 165 + floor(random() * 27) WHEN 'female' THEN 152 + floor(random() * 25)
          ELSE 155 + floor(random() * 30) END END::int AS height,
        CASE WHEN random() < 0.85 THEN ${pick(['high_school', 'some_college', 'some_college', 'associate', 'bachelor', 'bachelor', 'bachelor', 'master', 'master', 'doctorate', 'other'], 'random()')} END AS education_value,
        CASE WHEN random() < 0.75 THEN ${pick(['never', 'never', 'never', 'never', 'socially', 'regularly', 'prefer_not_to_say'], 'random()')} END AS smoking,
        CASE WHEN random() < 0.75 THEN ${pick(['never', 'socially', 'socially', 'socially', 'regularly', 'prefer_not_to_say'], 'random()')} END AS drinking,
        CASE WHEN random() < 0.75 THEN ${pick(['never', 'sometimes', 'sometimes', 'regularly', 'daily'], 'random()')} END AS exercise,
        CASE WHEN random() < 0.75 THEN ${pick(['none', 'none', 'dog', 'cat', 'other', 'multiple'], 'random()')} END AS pets
      FROM (
        SELECT g, place_name, lat, lng,
          CASE WHEN r_gender < 0.46 THEN 'male' WHEN r_gender < 0.92 THEN 'female' WHEN r_gender < 0.97 THEN 'non-binary'
               WHEN r_gender < 0.985 THEN 'other' ELSE 'prefer-not-to-say' END AS gender,
          18 + floor(52 * power(random(), 2.2))::int AS age,
          random() AS r_range, random() AS r_lo, random() AS r_hi, random() AS r_distance, random() AS r_orientation,
          random() < 0.35 AS picky,
          (floor(random() * 2097152)::int & floor(random() * 2097152)::int) | (1 << floor(random() * 21)::int) AS interest_bits
        FROM (
          SELECT g, pl.name AS place_name, pl.lat, pl.lng, random() AS r_gender
            FROM (VALUES ${placeRows}) AS pl(first, last, lat, lng, name), generate_series(pl.first, pl.last) AS g
        ) AS s0
      ) AS s1
    ) AS s`);
}

/**
 * A background swipe history: every other member has swiped `perSwiper` members of their own
 * place (about 35 % likes) in the last 30 days. Duplicates are skipped.
 */
export async function insertSwipes(db: Client, places: Place[], perSwiper: number): Promise<void> {
  const placeRows = places.map((p) => `(${p.first}, ${p.size})`).join(',');
  await db.query(`
    INSERT INTO swipe (swiper_id, target_id, liked, created_at)
    SELECT ${userIdSql('g')}, ${userIdSql('(pl.first + floor(random() * pl.size)::int)')}, random() < 0.35,
           now() - random() * interval '30 days'
      FROM (VALUES ${placeRows}) AS pl(first, size), generate_series(pl.first, pl.first + pl.size - 1, 2) AS g,
           generate_series(1, ${perSwiper}) AS k
    ON CONFLICT DO NOTHING`);
}
