import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as argon2 from 'argon2';
import sharp from 'sharp';
import {
  ALL_GENDERS,
  ALL_LOOKING_FOR,
  BIO_MAX_LENGTH,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  DRINKING_VALUES,
  EDUCATION_OPTIONS,
  EXERCISE_VALUES,
  INTERESTED_IN_OPTIONS,
  ONBOARDING_BIO_MIN_LENGTH,
  ONBOARDING_INTEREST_SUGGESTIONS,
  PETS_VALUES,
  PHOTO_SIZES,
  PREFERENCES_MAX_AGE,
  PREFERENCES_MIN_AGE,
  PROFILE_INTERESTS,
  CHAT_CLIENT_ID_PATTERN,
  CHAT_MESSAGE_MAX_LENGTH,
  messageLength,
  normalizeMessageContent,
  SMOKING_VALUES,
  photoFileUrl,
  type PhotoSize,
} from '@mate/contracts';
import { startServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, testInfra, type TestDatabase } from '@mate/testing';
import { fitsBothWays, mutualLikes, query, ROOT, run, runModule, runSeeder, type RuleMember, type SwipeRow } from './helpers';
import { randomUUID } from 'node:crypto';

/*
 * The seeder against real databases migrated by the services themselves (`main.js migrate` of
 * the built auth-service, profile-service, matching-service, chat-service, safety-service, call-service and admin-service), checked with profile-service's
 * own code where it matters: its geocoder (coordinates), its image processor (photo bytes), its
 * local storage (deleting a photo) and its file route (serving the photos).
 */

const SERVICES = ['auth-service', 'profile-service', 'matching-service', 'chat-service', 'safety-service', 'call-service', 'admin-service'] as const;
const distOf = (svc: string, file: string) => path.join(ROOT, 'dist/apps', svc, 'apps', svc, 'src', file);
const PROFILE_DIST = {
  geocoder: distOf('profile-service', 'geocoding/geocoder.js'),
  imageProcessor: distOf('profile-service', 'photos/image-processor.js'),
  localStorage: distOf('profile-service', 'photos/storage/local-photo-storage.js'),
};
/** call-service's SQL: its rule for a pair that may call (PAIR_CALLABLE_SQL) and its pair-event statements. */
const CALL_SQL_DIST = distOf('call-service', 'call/call.repository.js');
const CALL_PAIR_SQL_DIST = distOf('call-service', 'call/pair.repository.js');
/** admin-service's metric queries (ANALYTICS_SQL), run on the seeded analytics store. */
const ANALYTICS_SQL_DIST = distOf('admin-service', 'analytics/analytics.sql.js');

/** A service's migration sources, relative to its src (in `src/migrations` or a feature's `migrations` folder). */
function migrationSources(svc: string): string[] {
  const src = path.join(ROOT, 'apps', svc, 'src');
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && path.basename(path.dirname(f)) === 'migrations')
    .map((f) => f.split(path.sep).join('/'));
}
const SIZES = Object.keys(PHOTO_SIZES) as PhotoSize[];
const SEED = '7';
const MEMBERS = 40;

/** The built services are there, with every migration of their sources. */
function distReady(): boolean {
  for (const svc of SERVICES) {
    if (!existsSync(path.join(ROOT, 'dist/apps', svc, 'main.js'))) return false;
    if (migrationSources(svc).some((f) => !existsSync(distOf(svc, f.replace(/\.ts$/, '.js'))))) return false;
  }
  return [...Object.values(PROFILE_DIST), CALL_SQL_DIST, CALL_PAIR_SQL_DIST, ANALYTICS_SQL_DIST].every((f) => existsSync(f));
}

async function buildServices(): Promise<void> {
  const nx = path.join(ROOT, 'node_modules/.bin/nx');
  const r = await run(nx, ['run-many', '-t', 'build', '-p', ...SERVICES], {
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
  });
  if (r.code !== 0) throw new Error(`building ${SERVICES.join(', ')} failed:\n${r.stdout}\n${r.stderr}`);
}

async function migrate(svc: string, url: string): Promise<void> {
  const attempt = () =>
    run(process.execPath, [path.join(ROOT, 'dist/apps', svc, 'main.js'), 'migrate'], {
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
    });
  let r = await attempt();
  if (r.code !== 0) {
    // dist may be stale or half rewritten by a concurrent build: build, then try once more.
    await buildServices();
    r = await attempt();
  }
  if (r.code !== 0) throw new Error(`${svc} migrate failed:\n${r.stdout}\n${r.stderr}`);
}

/** The databases of one installation (each migrated by its service) and a photo folder. */
interface Pair {
  auth: TestDatabase;
  profile: TestDatabase;
  matching: TestDatabase;
  chat: TestDatabase;
  safety: TestDatabase;
  call: TestDatabase;
  admin: TestDatabase;
  photoDir: string;
}

async function createPair(label: string): Promise<Pair> {
  const [auth, profile, matching, chat, safety, call, admin] = await Promise.all(
    ['auth', 'profile', 'matching', 'chat', 'safety', 'call', 'admin'].map((db) => createTestDatabase(`seed_${label}_${db}`)),
  );
  await Promise.all([
    migrate('auth-service', auth.url),
    migrate('profile-service', profile.url),
    migrate('matching-service', matching.url),
    migrate('chat-service', chat.url),
    migrate('safety-service', safety.url),
    migrate('call-service', call.url),
    migrate('admin-service', admin.url),
  ]);
  return { auth, profile, matching, chat, safety, call, admin, photoDir: await mkdtemp(path.join(os.tmpdir(), `mate-seed-${label}-`)) };
}

const dropPair = (p: Pair) => [
  p.auth.drop(),
  p.profile.drop(),
  p.matching.drop(),
  p.chat.drop(),
  p.safety.drop(),
  p.call.drop(),
  p.admin.drop(),
  rm(p.photoDir, { recursive: true, force: true }),
];

const seedArgs = (pair: Pair, ...extra: string[]) => [
  '--auth-db',
  pair.auth.url,
  '--profile-db',
  pair.profile.url,
  '--matching-db',
  pair.matching.url,
  '--chat-db',
  pair.chat.url,
  '--safety-db',
  pair.safety.url,
  '--call-db',
  pair.call.url,
  '--admin-db',
  pair.admin.url,
  '--photo-dir',
  pair.photoDir,
  ...extra,
];

/**
 * Matching's matches against safety's pairs: `missing` the matches (ids) without a pair row holding
 * exactly them (members, match id and time, nobody blocking, nothing ended), `extra` the pairs
 * holding a match matching does not have.
 */
async function pairsVersusMatches(p: Pair): Promise<{ missing: string[]; extra: string[] }> {
  const matches = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
    p.matching.url,
    'SELECT id, user_a, user_b, created_at FROM match',
  );
  const pairs = await query<{
    pair_id: string;
    member_a: string;
    member_b: string;
    match_id: string | null;
    matched_at: Date | null;
    blocked_by: string[];
    ended_match_id: string | null;
  }>(p.safety.url, 'SELECT pair_id, member_a, member_b, match_id, matched_at, blocked_by, ended_match_id FROM pair');
  const byId = new Map(pairs.map((r) => [r.pair_id, r]));
  const missing = matches
    .filter((m) => {
      const r = byId.get(`${m.user_a}:${m.user_b}`);
      return !(
        r &&
        r.member_a === m.user_a &&
        r.member_b === m.user_b &&
        r.match_id === m.id &&
        r.matched_at?.getTime() === m.created_at.getTime() &&
        r.blocked_by.length === 0 &&
        r.ended_match_id === null
      );
    })
    .map((m) => m.id)
    .sort();
  const held = new Set(matches.map((m) => m.id));
  const extra = pairs.filter((r) => r.match_id !== null && !held.has(r.match_id)).map((r) => r.pair_id);
  return { missing, extra };
}

/** backfillSafetyPairs of hook.mjs (ESM) in its own process (as `npm start` runs it): what it resolved and printed. */
async function backfillPairs(p: Pair): Promise<{ result: { backfilled: boolean; written: number }; stdout: string }> {
  const hook = `file://${path.join(ROOT, 'tools/seed/hook.mjs')}`;
  const options = { matchingDbUrl: p.matching.url, safetyDbUrl: p.safety.url };
  const source = `import { backfillSafetyPairs } from '${hook}';
    const result = await backfillSafetyPairs(${JSON.stringify(options)});
    process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
  const r = await run(process.execPath, ['--input-type=module', '-e', source]);
  if (r.code !== 0) throw new Error(`backfillSafetyPairs failed:\n${r.stdout}\n${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return { result: JSON.parse(line?.slice('RESULT '.length) ?? 'null'), stdout: r.stdout };
}

/**
 * Matching's matches against call-service's: `missing` the matches (ids) call-service has no row of
 * exactly them (members, time, the pair version matching holds them under), `extra` call-service's
 * matches matching does not have.
 */
async function callMatchesVersusMatches(p: Pair): Promise<{ missing: string[]; extra: string[] }> {
  const matches = await query<{ id: string; user_a: string; user_b: string; created_at: Date; pair_version: number }>(
    p.matching.url,
    `SELECT m.id, m.user_a, m.user_b, m.created_at, coalesce(v.version, 0)::int AS pair_version FROM match m
       LEFT JOIN applied_version v ON v.aggregate_type = 'pair' AND v.aggregate_id = m.user_a::text || ':' || m.user_b::text`,
  );
  const known = await query<{ match_id: string; member_a: string; member_b: string; matched_at: Date; pair_version: number | null }>(
    p.call.url,
    'SELECT match_id, member_a, member_b, matched_at, pair_version FROM call_match',
  );
  const byId = new Map(known.map((r) => [r.match_id, r]));
  const missing = matches
    .filter((m) => {
      const r = byId.get(m.id);
      return !(
        r &&
        r.member_a === m.user_a &&
        r.member_b === m.user_b &&
        r.matched_at.getTime() === m.created_at.getTime() &&
        r.pair_version === m.pair_version
      );
    })
    .map((m) => m.id)
    .sort();
  const held = new Set(matches.map((m) => m.id));
  const extra = known.filter((r) => !held.has(r.match_id)).map((r) => r.match_id).sort();
  return { missing, extra };
}

/** Whether call-service lets the two members call (its own rule, PAIR_CALLABLE_SQL of the built service). */
async function callable(p: Pair, x: string, y: string): Promise<boolean> {
  const { PAIR_CALLABLE_SQL } = require(CALL_SQL_DIST) as { PAIR_CALLABLE_SQL: string };
  const [a, b] = [x, y].sort();
  // No pair gate closed in these runs: its closing version is 0 (ADR 0024).
  const rows = await query<{ callable: boolean }>(p.call.url, PAIR_CALLABLE_SQL, [a, b, 0]);
  return rows[0].callable;
}

/** backfillCallMatches of hook.mjs (ESM) in its own process (as `npm start` runs it): what it resolved and printed. */
async function backfillCalls(p: Pair): Promise<{ result: { backfilled: boolean; written: number }; stdout: string }> {
  const hook = `file://${path.join(ROOT, 'tools/seed/hook.mjs')}`;
  const options = { matchingDbUrl: p.matching.url, callDbUrl: p.call.url };
  const source = `import { backfillCallMatches } from '${hook}';
    const result = await backfillCallMatches(${JSON.stringify(options)});
    process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
  const r = await run(process.execPath, ['--input-type=module', '-e', source]);
  if (r.code !== 0) throw new Error(`backfillCallMatches failed:\n${r.stdout}\n${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return { result: JSON.parse(line?.slice('RESULT '.length) ?? 'null'), stdout: r.stdout };
}

interface ProfileRow {
  user_id: string;
  name: string;
  age: number;
  gender: string;
  bio: string;
  location: string;
  height: number | null;
  looking_for: string;
  interests: string[];
  smoking: string | null;
  drinking: string | null;
  exercise: string | null;
  pets: string | null;
  location_lat: number | null;
  location_lng: number | null;
  location_resolved: boolean | null;
  is_verified: boolean;
  onboarding_completed: boolean;
}
interface PhotoRow {
  id: string;
  user_id: string;
  profile_id: string;
  url: string;
  is_primary: boolean;
  order: number;
  storage_key: string;
  sizes: Record<string, { width: number; height: number }>;
  moderation_status: string;
}

const photoFile = (dir: string, photo: Pick<PhotoRow, 'storage_key'>, size: PhotoSize) =>
  path.join(dir, photo.storage_key, `${size}.webp`);

describe('npm run seed', () => {
  let a: Pair;
  let b: Pair;
  let redisNs: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let firstRun: Awaited<ReturnType<typeof runSeeder>>;

  beforeAll(async () => {
    if (!distReady()) await buildServices();
    [a, b, redisNs] = await Promise.all([createPair('a'), createPair('b'), createTestRedisNamespace('seed')]);
    firstRun = await runSeeder(seedArgs(a, '--members', String(MEMBERS), '--seed', SEED));
  });

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).flatMap(dropPair));
    await redisNs?.cleanup();
  });

  it('seeds the members and prints a summary', () => {
    expect(firstRun.stderr).toBe('');
    expect(firstRun.code).toBe(0);
    expect(firstRun.stdout).toMatch(new RegExp(`\\[seed\\] ${MEMBERS} members, \\d+ photos, \\d cities in [\\d.]+ s`));
    expect(firstRun.stdout).toContain('mate-demo-2026');
  });

  it('writes one account, profile and preferences row per member, with the same user id', async () => {
    const users = await query<{ id: string }>(a.auth.url, 'SELECT id FROM users ORDER BY id');
    const profiles = await query<{ user_id: string }>(a.profile.url, 'SELECT user_id FROM profiles ORDER BY user_id');
    const prefs = await query<{ user_id: string }>(a.profile.url, 'SELECT user_id FROM preferences ORDER BY user_id');
    expect(users).toHaveLength(MEMBERS);
    expect(profiles.map((p) => p.user_id)).toEqual(users.map((u) => u.id));
    expect(prefs.map((p) => p.user_id)).toEqual(users.map((u) => u.id));
  });

  it('makes verified member accounts with demo emails and the shared demo password', async () => {
    const users = await query<{ email: string; role: string; email_verified_at: Date | null; password_hash: string; age: number }>(
      a.auth.url,
      'SELECT email, role, email_verified_at, password_hash, age FROM users',
    );
    for (const u of users) {
      expect(u.email).toMatch(/^[a-z0-9]+\.[a-z0-9]+\.\d+@demo\.mate\.local$/);
      expect(u.role).toBe('member');
      expect(u.email_verified_at).toBeInstanceOf(Date);
      expect(u.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    }
    expect(new Set(users.map((u) => /\.(\d+)@/.exec(u.email)?.[1])).size).toBe(MEMBERS);
    // One hash for all of them (hashed once).
    expect(new Set(users.map((u) => u.password_hash)).size).toBe(1);
    expect(await argon2.verify(users[0].password_hash, 'mate-demo-2026')).toBe(true);
  });

  it('fills every profile within the option lists, onboarding completed', async () => {
    const rows = await query<ProfileRow>(a.profile.url, 'SELECT * FROM profiles');
    const interests = new Set<string>([...PROFILE_INTERESTS, ...ONBOARDING_INTEREST_SUGGESTIONS]);
    for (const p of rows) {
      expect(p.name).toBeTruthy();
      expect(p.age).toBeGreaterThanOrEqual(18);
      expect(p.age).toBeLessThanOrEqual(70);
      expect(ALL_GENDERS).toContain(p.gender);
      expect(ALL_LOOKING_FOR).toContain(p.looking_for);
      expect(p.interests.length).toBeGreaterThanOrEqual(2);
      expect(p.interests.length).toBeLessThanOrEqual(8);
      for (const i of p.interests) expect(interests).toContain(i);
      expect(p.bio.length).toBeGreaterThanOrEqual(ONBOARDING_BIO_MIN_LENGTH);
      expect(p.bio.length).toBeLessThanOrEqual(BIO_MAX_LENGTH);
      expect(p.is_verified).toBe(true);
      expect(p.onboarding_completed).toBe(true);
      expect(p.location_resolved).toBe(true);
      if (p.smoking !== null) expect(SMOKING_VALUES).toContain(p.smoking);
      if (p.drinking !== null) expect(DRINKING_VALUES).toContain(p.drinking);
      if (p.exercise !== null) expect(EXERCISE_VALUES).toContain(p.exercise);
      if (p.pets !== null) expect(PETS_VALUES).toContain(p.pets);
    }
    expect(new Set(rows.map((p) => p.gender)).size).toBeGreaterThanOrEqual(2);
    // Lifestyle is seeded (most members say, some do not).
    for (const field of ['smoking', 'drinking', 'exercise', 'pets'] as const) {
      expect(rows.some((p) => p[field] !== null)).toBe(true);
    }
  });

  it('stores the coordinates profile-service geocodes each location to', async () => {
    const { Geocoder } = require(PROFILE_DIST.geocoder) as {
      Geocoder: new () => { geocode(text: string): Promise<{ latitude: number; longitude: number } | null> };
    };
    const geocoder = new Geocoder();
    const rows = await query<ProfileRow>(a.profile.url, 'SELECT location, location_lat, location_lng FROM profiles');
    const all = runModule<{ texts: string[]; lat: number; lng: number }[]>(
      `import { resolvedCities } from '$LIB/cities.mjs'; process.stdout.write(JSON.stringify(resolvedCities()));`,
    );
    const texts = new Map<string, { lat: number; lng: number }>();
    for (const c of all) for (const t of c.texts) texts.set(t, { lat: c.lat, lng: c.lng });
    expect(all).toHaveLength(9);
    // Every way the seeder writes a place resolves, in profile-service, to the coordinates it stores.
    for (const [text, { lat, lng }] of texts) {
      await expect(geocoder.geocode(text)).resolves.toMatchObject({ latitude: lat, longitude: lng });
    }
    for (const p of rows) {
      expect(texts.get(p.location)).toEqual({ lat: p.location_lat, lng: p.location_lng });
    }
  });

  it('gives every member 1–4 approved photos in dense order, the first primary, each with its WebP files', async () => {
    const photos = await query<PhotoRow>(a.profile.url, 'SELECT * FROM photos ORDER BY user_id, "order"');
    const byUser = new Map<string, PhotoRow[]>();
    for (const p of photos) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), p]);
    expect(byUser.size).toBe(MEMBERS);
    for (const list of byUser.values()) {
      expect(list.length).toBeGreaterThanOrEqual(1);
      expect(list.length).toBeLessThanOrEqual(4);
      expect(list.map((p) => p.order)).toEqual(list.map((_, i) => i));
      expect(list.map((p) => p.is_primary)).toEqual(list.map((_, i) => i === 0));
    }
    for (const p of photos) {
      expect(p.moderation_status).toBe('approved');
      expect(p.url).toBe(photoFileUrl(p.id));
      expect(p.storage_key).toBe(`photos/${p.id}`);
      expect(Object.keys(p.sizes).sort()).toEqual([...SIZES].sort());
      for (const size of SIZES) {
        const meta = await sharp(await readFile(photoFile(a.photoDir, p, size))).metadata();
        expect(meta.format).toBe('webp');
        expect({ width: meta.width, height: meta.height }).toEqual(p.sizes[size]);
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(PHOTO_SIZES[size]);
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.icc).toBeUndefined();
      }
    }
  });

  it('encodes the photos byte for byte as profile-service does an upload of the same picture', async () => {
    const { ImageProcessor } = require(PROFILE_DIST.imageProcessor) as {
      ImageProcessor: new (env: { PHOTO_MAX_INPUT_PIXELS: number }) => {
        process(upload: Buffer): Promise<Record<PhotoSize, { body: Buffer; width: number; height: number }>>;
      };
    };
    const processor = new ImageProcessor({ PHOTO_MAX_INPUT_PIXELS: 50_000_000 });
    const first = await query<{ email: string }>(a.auth.url, 'SELECT email FROM users ORDER BY email LIMIT 1');
    const n = Number(first[0].email.split('@')[0].split('.').at(-1));
    // The uploads a member would have sent: the same pictures as PNG files.
    const uploads = runModule<{ id: string; png: string }[]>(`
      import { memberAt } from '$LIB/population.mjs';
      import { resolvedCities } from '$LIB/cities.mjs';
      import { renderUpload } from '$LIB/photos.mjs';
      import { Rng } from '$LIB/random.mjs';
      const m = memberAt(${JSON.stringify(SEED)}, ${n}, { cities: resolvedCities(), now: Date.now() });
      const out = [];
      for (const p of m.photos) {
        const png = await renderUpload(p.kind, new Rng('picture', ${JSON.stringify(SEED)}, p.id), { png: true, presentation: p.presentation });
        out.push({ id: p.id, png: png.toString('base64') });
      }
      process.stdout.write(JSON.stringify(out));
    `);
    expect(uploads.length).toBeGreaterThanOrEqual(1);
    for (const upload of uploads) {
      const expected = await processor.process(Buffer.from(upload.png, 'base64'));
      for (const size of SIZES) {
        const stored = await readFile(photoFile(a.photoDir, { storage_key: `photos/${upload.id}` }, size));
        expect(stored.equals(expected[size].body)).toBe(true);
      }
    }
  });

  it('has its photos served by profile-service at GET /api/photos/files/<id>/<size>.webp', async () => {
    const infra = await testInfra();
    const service = await startServiceProcess(
      'dist/apps/profile-service/main.js',
      await freePort(),
      {
        NODE_ENV: 'test',
        DATABASE_URL: a.profile.url,
        REDIS_URL: infra.redisUrl,
        KEY_PREFIX: redisNs.prefix,
        PHOTO_DIR: a.photoDir,
        JWT_SECRET: 'seed-test-jwt-secret-0123456789',
        LOG_LEVEL: 'warn',
      },
      { health: '/health/ready' },
    );
    try {
      const base = service.url;
      const photos = await query<PhotoRow>(a.profile.url, 'SELECT id, storage_key FROM photos');
      for (const p of photos) {
        for (const size of SIZES) {
          const res = await fetch(`${base}${photoFileUrl(p.id, size)}`);
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toBe('image/webp');
          const body = Buffer.from(await res.arrayBuffer());
          expect(body.equals(await readFile(photoFile(a.photoDir, p, size)))).toBe(true);
        }
      }
    } finally {
      await service.stop();
    }
  });

  it('writes valid preferences', async () => {
    const rows = await query<{
      min_age: number;
      max_age: number;
      max_distance: number;
      gender_preference: string[];
      education_preference: string[];
    }>(a.profile.url, 'SELECT * FROM preferences');
    const education = new Set<string>(EDUCATION_OPTIONS.map((o) => o.value));
    for (const p of rows) {
      expect(PREFERENCES_MIN_AGE).toBeLessThanOrEqual(p.min_age);
      expect(p.min_age).toBeLessThanOrEqual(p.max_age);
      expect(p.max_age).toBeLessThanOrEqual(PREFERENCES_MAX_AGE);
      expect(p.max_distance).toBeGreaterThanOrEqual(DISTANCE_MIN_KM);
      expect(p.max_distance).toBeLessThanOrEqual(DISTANCE_MAX_KM);
      for (const g of p.gender_preference) expect(INTERESTED_IN_OPTIONS).toContain(g);
      for (const e of p.education_preference) expect(education).toContain(e);
    }
  });

  it('makes the same members and the same photo files again with the same --seed', async () => {
    const again = await runSeeder(seedArgs(b, '--members', String(MEMBERS), '--seed', SEED));
    expect(again.code).toBe(0);
    const tables: [keyof Pair, string][] = [
      ['auth', 'SELECT id, email, name, age, role FROM users ORDER BY id'],
      [
        'profile',
        `SELECT id, user_id, name, age, gender, bio, location, height, occupation, education, looking_for, interests,
                location_lat, location_lng, smoking, drinking, exercise, pets FROM profiles ORDER BY id`,
      ],
      ['profile', 'SELECT id, user_id, profile_id, url, is_primary, "order", storage_key, sizes FROM photos ORDER BY id'],
      ['profile', 'SELECT user_id, min_age, max_age, max_distance, gender_preference, interests, dealbreakers, min_height, max_height, education_preference, relationship_goal_preference, smoking_preference, drinking_preference, exercise_preference, pets_preference, required_interests FROM preferences ORDER BY user_id'],
      ['matching', 'SELECT swiper_id, target_id, liked FROM swipe ORDER BY swiper_id, target_id'],
      ['matching', 'SELECT id, user_a, user_b FROM match ORDER BY id'],
      ['chat', 'SELECT id, member_a, member_b, match_id, last_seq, a_read_seq, b_read_seq, a_unread, b_unread FROM conversation ORDER BY id'],
      ['chat', 'SELECT id, conversation_id, seq, sender_id, recipient_id, client_id, content FROM message ORDER BY id'],
      ['safety', 'SELECT pair_id, member_a, member_b, match_id, blocked_by, ended_match_id FROM pair ORDER BY pair_id'],
      ['call', 'SELECT match_id, member_a, member_b, matched_at, pair_version FROM call_match ORDER BY match_id'],
    ];
    for (const [db, sql] of tables) {
      const [left, right] = await Promise.all([
        query((a[db] as TestDatabase).url, sql),
        query((b[db] as TestDatabase).url, sql),
      ]);
      expect(right).toEqual(left);
    }
    const photos = await query<PhotoRow>(a.profile.url, 'SELECT storage_key FROM photos');
    for (const p of photos) {
      for (const size of SIZES) {
        const [x, y] = await Promise.all([readFile(photoFile(a.photoDir, p, size)), readFile(photoFile(b.photoDir, p, size))]);
        expect(x.equals(y)).toBe(true);
      }
    }
  });

  it('does nothing with --if-empty when the profiles table has members', async () => {
    const before = await readdir(path.join(a.photoDir, 'photos'));
    const r = await runSeeder(seedArgs(a, '--if-empty', '--members', '25'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`the profiles table already has ${MEMBERS} member(s); nothing to do (--if-empty)`);
    const [users, profiles] = await Promise.all([
      query<{ n: number }>(a.auth.url, 'SELECT count(*)::int AS n FROM users'),
      query<{ n: number }>(a.profile.url, 'SELECT count(*)::int AS n FROM profiles'),
    ]);
    expect(users[0].n).toBe(MEMBERS);
    expect(profiles[0].n).toBe(MEMBERS);
    expect(await readdir(path.join(a.photoDir, 'photos'))).toEqual(before);
  });

  it('reuses a pool of pictures above --pool-threshold through per-photo hard links, so deleting one photo keeps the others', async () => {
    const r = await runSeeder(seedArgs(b, '--members', '12', '--seed', SEED, '--pool-threshold', '5', '--pool-size', '6'));
    expect(r.code).toBe(0);
    // Numbering continues after the members already there.
    expect(r.stdout).toContain(`#${MEMBERS + 1}–#${MEMBERS + 12}`);
    expect((await readdir(b.photoDir)).filter((f) => f.startsWith('.seed-pool'))).toEqual([]);
    const newcomers = await query<{ id: string }>(
      b.auth.url,
      `SELECT id FROM users WHERE substring(email FROM '\\.([0-9]+)@')::int > $1`,
      [MEMBERS],
    );
    expect(newcomers).toHaveLength(12);
    const added = await query<PhotoRow>(b.profile.url, 'SELECT * FROM photos WHERE user_id = ANY($1::uuid[])', [
      newcomers.map((u) => u.id),
    ]);
    expect(added.length).toBeGreaterThanOrEqual(12);
    const byInode = new Map<number, PhotoRow[]>();
    for (const p of added) {
      expect(p.storage_key).toBe(`photos/${p.id}`);
      const s = await stat(photoFile(b.photoDir, p, 'large'));
      expect(s.nlink).toBeGreaterThanOrEqual(2);
      byInode.set(s.ino, [...(byInode.get(s.ino) ?? []), p]);
    }
    // Pool portraits present like the member: of the pool's three portraits (feminine, masculine,
    // feminine), men's primary photos all show the masculine one, women's never.
    const genders = new Map(
      (await query<{ user_id: string; gender: string }>(b.profile.url, 'SELECT user_id, gender FROM profiles')).map((p) => [p.user_id, p.gender]),
    );
    const primaryInodes = async (gender: string) =>
      new Set(
        await Promise.all(
          added.filter((p) => p.is_primary && genders.get(p.user_id) === gender).map(async (p) => (await stat(photoFile(b.photoDir, p, 'large'))).ino),
        ),
      );
    const [men, women] = [await primaryInodes('male'), await primaryInodes('female')];
    expect(men.size).toBe(1);
    expect(women.size).toBeGreaterThanOrEqual(1);
    expect([...women].filter((ino) => men.has(ino))).toEqual([]);

    const shared = [...byInode.values()].find((list) => list.length >= 2);
    expect(shared).toBeDefined();
    const [deleted, kept] = shared as PhotoRow[];
    const keptBytes = await readFile(photoFile(b.photoDir, kept, 'large'));

    // What PhotosService.remove does with the files of a deleted photo.
    const { LocalPhotoStorage } = require(PROFILE_DIST.localStorage) as {
      LocalPhotoStorage: new (root: string) => { delete(key: string): Promise<void> };
    };
    const storage = new LocalPhotoStorage(b.photoDir);
    for (const size of SIZES) await storage.delete(`${deleted.storage_key}/${size}.webp`);

    expect(existsSync(path.join(b.photoDir, deleted.storage_key))).toBe(false);
    for (const size of SIZES) expect(existsSync(photoFile(b.photoDir, kept, size))).toBe(true);
    expect((await readFile(photoFile(b.photoDir, kept, 'large'))).equals(keptBytes)).toBe(true);
  });
});

describe('npm run seed: the swipe history', () => {
  /** Enough members for a history: a member swipes only people in reach whom they fit and who fit them. */
  const COUNT = 1000;
  let h: Pair;
  let seeded: Awaited<ReturnType<typeof runSeeder>>;
  let swipes: SwipeRow[];

  beforeAll(async () => {
    if (!distReady()) await buildServices();
    h = await createPair('history');
    // Photos from a pool of four pictures (cheap); batches of 300, so the history's window of
    // members spans several batches.
    seeded = await runSeeder(
      seedArgs(h, '--members', String(COUNT), '--seed', SEED, '--pool-threshold', '0', '--pool-size', '4', '--batch-size', '300'),
    );
    swipes = (
      await query<{ swiper_id: string; target_id: string; liked: boolean }>(
        h.matching.url,
        'SELECT swiper_id, target_id, liked FROM swipe ORDER BY swiper_id, target_id',
      )
    ).map((r) => ({ swiperId: r.swiper_id, targetId: r.target_id, liked: r.liked }));
  });

  afterAll(async () => {
    if (h) await Promise.all(dropPair(h));
  });

  it("writes swipes and matches into matching-service's database and says how many", async () => {
    expect(seeded.stderr).toBe('');
    expect(seeded.code).toBe(0);
    const matches = await query<{ n: number }>(h.matching.url, 'SELECT count(*)::int AS n FROM match');
    const likes = swipes.filter((s) => s.liked).length;
    expect(swipes.length).toBeGreaterThan(COUNT);
    expect(likes).toBeGreaterThan(0);
    expect(matches[0].n).toBeGreaterThan(0);
    expect(seeded.stdout).toContain(`[seed] swipe history: ${swipes.length} swipes (${likes} likes), ${matches[0].n} matches`);
    expect(seeded.stdout).toContain(`[seed] safety pairs: ${matches[0].n} (one per match, holding it)`);
    expect(seeded.stdout).toContain(`[seed] call-service matches: ${matches[0].n} (one per match, so each pair may call)`);
  });

  describe("admin-service's analytics history", () => {
    const today = () => new Date().toISOString().slice(0, 10);
    const count = async (url: string, sql: string) => (await query<{ n: number }>(url, sql))[0].n;
    /** One metric query of the built admin-service (ANALYTICS_SQL), as its analytics calls run it. */
    async function metric<T = Record<string, unknown>>(name: string, days = 30): Promise<T[]> {
      const { ANALYTICS_SQL } = require(ANALYTICS_SQL_DIST) as { ANALYTICS_SQL: Record<string, string> };
      const sql = ANALYTICS_SQL[name];
      return query<T>(h.admin.url, sql, sql.includes('$2') ? [today(), days] : sql.includes('$1') ? [today()] : []);
    }
    const numbers = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));

    it('holds the population and its history as the services would have told them, with 90 days of activity, and says how many', async () => {
      const facts = await count(h.admin.url, 'SELECT count(*)::int AS n FROM analytics_event');
      expect(seeded.stdout).toContain(`[seed] analytics history: ${facts} facts (`);
      const accounts = await query<{ id: string; created_at: Date }>(h.auth.url, 'SELECT id, created_at FROM users');
      const registered = await query<{ user_id: string; occurred_at: Date }>(
        h.admin.url,
        "SELECT user_id, occurred_at FROM analytics_event WHERE type = 'user.registered'",
      );
      const registeredAt = new Map(registered.map((r) => [r.user_id, r.occurred_at.getTime()]));
      for (const a of accounts) expect(registeredAt.get(a.id)).toBe(a.created_at.getTime());
      const deleted = await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type = 'user.deleted'");
      expect(registered.length - deleted).toBe(accounts.length);
      expect(await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type IN ('like.created', 'pass.created')")).toBe(
        swipes.length,
      );
      expect(await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type = 'match.created'")).toBe(
        await count(h.matching.url, 'SELECT count(*)::int AS n FROM match'),
      );
      expect(await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type = 'message.sent'")).toBe(
        await count(h.chat.url, 'SELECT count(*)::int AS n FROM message'),
      );
      const [days] = await query<{ first: string; last: string; n: number }>(
        h.admin.url,
        `SELECT to_char(min(day), 'YYYY-MM-DD') AS first, to_char(max(day), 'YYYY-MM-DD') AS last, count(DISTINCT day)::int AS n
           FROM analytics_event WHERE type = 'member.active'`,
      );
      expect(days).toEqual({ first: new Date(Date.now() - 89 * 24 * 3600 * 1000).toISOString().slice(0, 10), last: today(), n: 90 });
    });

    it("opens admin-service's analytics on believable numbers", async () => {
      const [overview] = (await metric('overview')).map(numbers);
      expect(overview['totalUsers']).toBe(COUNT);
      expect(overview['totalMatches']).toBe(await count(h.matching.url, 'SELECT count(*)::int AS n FROM match'));
      expect(overview['activeUsers30d']).toBeGreaterThan(0.3 * COUNT);
      expect(overview['activeUsers30d']).toBeLessThan(0.9 * COUNT);
      expect(overview['onboardingCompletionRate']).toBeGreaterThan(0.75);
      expect(overview['onboardingCompletionRate']).toBeLessThan(0.97);
      expect(overview['profileCompletionRate']).toBeGreaterThan(0.8);
      expect(overview['profileCompletionRate']).toBeLessThan(1);
      expect(overview['pendingReports']).toBe(0);
      const growth = (await metric('user-growth', 90)).map(numbers);
      expect(growth).toHaveLength(90);
      expect(growth[89]['totalUsers']).toBe(COUNT);
      expect(growth[0]['totalUsers']).toBeLessThan(COUNT * 0.9);
      const [engagement] = (await metric('engagement')).map(numbers);
      expect(engagement['dau']).toBeGreaterThan(0);
      expect(engagement['dau']).toBeLessThan(engagement['wau']);
      expect(engagement['wau']).toBeLessThan(engagement['mau']);
      expect(engagement['swipeRate']).toBeGreaterThan(0);
      const [retention] = (await metric('retention')).map(numbers);
      expect(retention['d1Retention']).toBeGreaterThan(retention['d7Retention']);
      expect(retention['d7Retention']).toBeGreaterThan(retention['d30Retention']);
      expect(retention['d30Retention']).toBeGreaterThan(0);
      expect(retention['churnRate']).toBeGreaterThan(0);
      expect(retention['churnRate']).toBeLessThan(0.6);
      const [safety] = (await metric('safety')).map(numbers);
      expect(safety['totalReports']).toBeGreaterThan(0);
      expect(safety['resolvedReports']).toBe(safety['totalReports']);
      expect(safety['avgResolutionTime']).toBeGreaterThan(1);
      expect(safety['avgResolutionTime']).toBeLessThan(120);
      expect(safety['totalSuspensions']).toBe(0);
      expect((await metric('report-trends', 90)).length).toBeGreaterThan(0);
    });

    it('is backfilled from the databases on an installation seeded before it (hook.mjs backfillAnalytics), once', async () => {
      const hook = `file://${path.join(ROOT, 'tools/seed/hook.mjs')}`;
      const options = { adminDbUrl: h.admin.url, authDbUrl: h.auth.url, profileDbUrl: h.profile.url, matchingDbUrl: h.matching.url, chatDbUrl: h.chat.url };
      const backfill = async () => {
        const source = `import { backfillAnalytics } from '${hook}';
          const result = await backfillAnalytics(${JSON.stringify(options)});
          process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
        const r = await run(process.execPath, ['--input-type=module', '-e', source]);
        if (r.code !== 0) throw new Error(`backfillAnalytics failed:\n${r.stdout}\n${r.stderr}`);
        const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
        return { result: JSON.parse(line?.slice('RESULT '.length) ?? 'null') as { backfilled: boolean; written: number }, stdout: r.stdout };
      };
      // Nothing to do on the seeded store: it knows every account.
      expect((await backfill()).result).toEqual({ backfilled: false, written: 0 });
      // An installation seeded before the analytics history: the store knows only a live event or two.
      await query(h.admin.url, "DELETE FROM analytics_event WHERE NOT (type = 'user.registered' AND user_id IN (SELECT user_id FROM analytics_event ORDER BY user_id LIMIT 2))");
      const first = await backfill();
      expect(first.result.backfilled).toBe(true);
      expect(first.stdout).toContain(`[mate] admin-service: ${first.result.written} analytics fact(s) backfilled (${COUNT} members, 90 days of activity)`);
      expect(await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type = 'match.created'")).toBe(
        await count(h.matching.url, 'SELECT count(*)::int AS n FROM match'),
      );
      expect(await count(h.admin.url, "SELECT count(*)::int AS n FROM analytics_event WHERE type = 'message.sent'")).toBe(
        await count(h.chat.url, 'SELECT count(*)::int AS n FROM message'),
      );
      const [overview] = (await metric('overview')).map(numbers);
      expect(overview['totalUsers']).toBe(COUNT);
      expect(overview['activeUsers30d']).toBeGreaterThan(0.3 * COUNT);
      const [retention] = (await metric('retention')).map(numbers);
      expect(retention['d1Retention']).toBeGreaterThan(retention['d30Retention']);
      expect((await backfill()).result).toEqual({ backfilled: false, written: 0 });
    });
  });

  it('makes every seeded match known to call-service, which lets each pair call (as match.created would)', async () => {
    expect(await callMatchesVersusMatches(h)).toEqual({ missing: [], extra: [] });
    const matches = await query<{ user_a: string; user_b: string }>(h.matching.url, 'SELECT user_a, user_b FROM match ORDER BY id LIMIT 20');
    expect(matches.length).toBe(20);
    for (const m of matches) expect(await callable(h, m.user_a, m.user_b)).toBe(true);
  });

  it("gives every seeded match its pair in safety-service's database, holding that match (as match.created would)", async () => {
    expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
    const pairs = await query<{ n: number }>(h.safety.url, 'SELECT count(*)::int AS n FROM pair');
    const matches = await query<{ n: number }>(h.matching.url, 'SELECT count(*)::int AS n FROM match');
    expect(matches[0].n).toBeGreaterThan(20);
    expect(pairs).toEqual(matches);
  });

  it("only between members whose hard rules accept each other both ways (profile-service's rows)", async () => {
    const rows = await query<Record<string, never>>(
      h.profile.url,
      `SELECT p.user_id, p.age, p.gender, p.location_lat, p.location_lng, p.height, p.education, p.looking_for, p.interests,
              p.smoking, p.drinking, p.exercise, p.pets, r.min_age, r.max_age, r.max_distance, r.gender_preference,
              r.min_height, r.max_height, r.education_preference, r.relationship_goal_preference, r.smoking_preference,
              r.drinking_preference, r.exercise_preference, r.pets_preference, r.required_interests
         FROM profiles p JOIN preferences r USING (user_id)`,
    );
    const members = new Map<string, RuleMember>(
      rows.map((r) => [
        r['user_id'],
        {
          userId: r['user_id'],
          age: r['age'],
          gender: r['gender'],
          lat: r['location_lat'],
          lng: r['location_lng'],
          height: r['height'],
          education: r['education'],
          lookingFor: r['looking_for'],
          interests: r['interests'],
          smoking: r['smoking'],
          drinking: r['drinking'],
          exercise: r['exercise'],
          pets: r['pets'],
          preferences: {
            minAge: r['min_age'],
            maxAge: r['max_age'],
            maxDistance: r['max_distance'],
            genderPreference: r['gender_preference'],
            minHeight: r['min_height'],
            maxHeight: r['max_height'],
            educationPreference: r['education_preference'],
            relationshipGoalPreference: r['relationship_goal_preference'],
            smokingPreference: r['smoking_preference'],
            drinkingPreference: r['drinking_preference'],
            exercisePreference: r['exercise_preference'],
            petsPreference: r['pets_preference'],
            requiredInterests: r['required_interests'],
          },
        },
      ]),
    );
    expect(members.size).toBe(COUNT);
    for (const s of swipes) {
      const [swiper, target] = [members.get(s.swiperId), members.get(s.targetId)];
      expect(swiper && target && fitsBothWays(swiper, target)).toBe(true);
    }
  });

  it('has a match for exactly each mutual like (user_a < user_b), dated with the later like', async () => {
    const matches = await query<{ user_a: string; user_b: string; created_at: Date; later: Date }>(
      h.matching.url,
      `SELECT m.user_a, m.user_b, m.created_at, greatest(x.created_at, y.created_at) AS later
         FROM match m
         JOIN swipe x ON x.swiper_id = m.user_a AND x.target_id = m.user_b
         JOIN swipe y ON y.swiper_id = m.user_b AND y.target_id = m.user_a`,
    );
    expect(matches.map((m) => `${m.user_a}|${m.user_b}`).sort()).toEqual(mutualLikes(swipes));
    for (const m of matches) expect(m.created_at).toEqual(m.later);
  });

  it('is the history of the seed (history.mjs deciding with taste.cjs), whatever the batch size', () => {
    const expected = runModule<SwipeRow[]>(`
      import { memberAt } from '$LIB/population.mjs';
      import { resolvedCities } from '$LIB/cities.mjs';
      import { swipeHistory } from '$LIB/history.mjs';
      import { HiddenTastes } from '$LIB/taste.cjs';
      const cities = resolvedCities();
      const now = Date.now();
      const members = [];
      for (let n = 1; n <= ${COUNT}; n++) members.push(memberAt(${JSON.stringify(SEED)}, n, { cities, now }));
      const { swipes } = swipeHistory(${JSON.stringify(SEED)}, members, { tastes: new HiddenTastes(${JSON.stringify(SEED)}), now });
      process.stdout.write(JSON.stringify(swipes.map(({ swiperId, targetId, liked }) => ({ swiperId, targetId, liked }))));
    `);
    const key = (s: SwipeRow) => `${s.swiperId}|${s.targetId}`;
    expect([...expected].sort((x, y) => (key(x) < key(y) ? -1 : 1))).toEqual(swipes);
  });

  it("writes no history for members without photos, and leaves matching-service's database alone", async () => {
    const nowhere = new URL(h.matching.url);
    nowhere.pathname = '/mate_seed_no_such_database';
    const r = await runSeeder(
      seedArgs(
        {
          ...h,
          matching: { ...h.matching, url: nowhere.toString() },
          chat: { ...h.chat, url: nowhere.toString() },
          safety: { ...h.safety, url: nowhere.toString() },
          call: { ...h.call, url: nowhere.toString() },
        },
        '--members',
        '5',
        '--no-photos',
      ),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('swipe history');
    const after = await query<{ n: number }>(h.matching.url, 'SELECT count(*)::int AS n FROM swipe');
    expect(after[0].n).toBe(swipes.length);
  });

  describe("the matches' conversations in chat-service's database", () => {
    interface ConversationRow {
      id: string;
      member_a: string;
      member_b: string;
      match_id: string;
      matched_at: Date;
      closed_at: Date | null;
      last_seq: number;
      last_message_id: string | null;
      last_message_at: Date | null;
      a_read_seq: number;
      b_read_seq: number;
      a_unread: number;
      b_unread: number;
    }
    interface MessageRow {
      id: string;
      conversation_id: string;
      seq: number;
      sender_id: string;
      recipient_id: string;
      client_id: string;
      content: string;
      created_at: Date;
    }
    let conversations: ConversationRow[];
    let messages: Map<string, MessageRow[]>;

    beforeAll(async () => {
      conversations = await query<ConversationRow>(h.chat.url, 'SELECT * FROM conversation ORDER BY id');
      messages = new Map(conversations.map((c) => [c.id, []]));
      for (const m of await query<MessageRow>(h.chat.url, 'SELECT * FROM message ORDER BY conversation_id, seq')) {
        messages.get(m.conversation_id)?.push(m);
      }
    });

    it('opens exactly one conversation per seeded match (named by the match, dated with it), and says how many', async () => {
      const matches = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match ORDER BY id',
      );
      expect(matches.length).toBeGreaterThan(20);
      expect(conversations.map((c) => [c.id, c.match_id, c.member_a, c.member_b, c.matched_at, c.closed_at])).toEqual(
        matches.map((m) => [m.id, m.id, m.user_a, m.user_b, m.created_at, null]),
      );
      const total = [...messages.values()].reduce((n, list) => n + list.length, 0);
      const exchanges = conversations.filter((c) => c.last_seq > 0).length;
      const unread = conversations.filter((c) => c.a_unread + c.b_unread > 0).length;
      expect(seeded.stdout).toContain(
        `[seed] conversations: ${conversations.length} (one per match), ${exchanges} with messages (${total} messages), ${unread} with unread messages`,
      );
    });

    it('gives a realistic share an exchange of 3–25 messages, numbered 1..n between the two, after the match and before now', () => {
      const withMessages = conversations.filter((c) => c.last_seq > 0);
      expect(withMessages.length / conversations.length).toBeGreaterThan(0.4);
      expect(withMessages.length / conversations.length).toBeLessThan(0.8);
      const now = new Date();
      let doubleTexts = 0;
      for (const c of conversations) {
        const list = messages.get(c.id) ?? [];
        expect(list.map((m) => m.seq)).toEqual(Array.from({ length: c.last_seq }, (_, i) => i + 1));
        if (c.last_seq === 0) {
          expect([c.last_message_id, c.last_message_at, c.a_read_seq, c.b_read_seq, c.a_unread, c.b_unread]).toEqual([null, null, 0, 0, 0, 0]);
          continue;
        }
        expect(c.last_seq).toBeGreaterThanOrEqual(3);
        expect(c.last_seq).toBeLessThanOrEqual(25);
        const last = list[list.length - 1];
        expect([c.last_message_id, c.last_message_at]).toEqual([last.id, last.created_at]);
        list.forEach((m, i) => {
          expect([m.sender_id, m.recipient_id].sort()).toEqual([c.member_a, c.member_b]);
          expect(m.content).toBe(normalizeMessageContent(m.content));
          expect(messageLength(m.content)).toBeGreaterThan(0);
          expect(messageLength(m.content)).toBeLessThanOrEqual(CHAT_MESSAGE_MAX_LENGTH);
          expect(m.client_id).toMatch(CHAT_CLIENT_ID_PATTERN);
          expect(m.created_at.getTime()).toBeGreaterThan(c.matched_at.getTime());
          expect(m.created_at.getTime()).toBeLessThanOrEqual(now.getTime());
          if (i > 0) {
            expect(m.created_at.getTime()).toBeGreaterThan(list[i - 1].created_at.getTime());
            if (m.sender_id === list[i - 1].sender_id) doubleTexts++;
          }
        });
        // Both members write: it is an exchange.
        expect(new Set(list.map((m) => m.sender_id)).size).toBe(2);
      }
      expect(doubleTexts).toBeGreaterThan(0);
      const all = [...messages.values()].flat();
      expect(new Set(all.map((m) => `${m.sender_id}|${m.client_id}`)).size).toBe(all.length);
      // Varied openers: the exchanges do not all start alike.
      const openers = withMessages.map((c) => messages.get(c.id)?.[0].content);
      expect(new Set(openers).size).toBeGreaterThan(withMessages.length / 3);
    });

    it("keeps each side's unread counter equal to the messages to it after its read seq: mostly read, some unread", () => {
      let unread = 0;
      for (const c of conversations) {
        const list = messages.get(c.id) ?? [];
        for (const [member, readSeq, counter] of [
          [c.member_a, c.a_read_seq, c.a_unread],
          [c.member_b, c.b_read_seq, c.b_unread],
        ] as const) {
          expect(readSeq).toBeGreaterThanOrEqual(0);
          expect(readSeq).toBeLessThanOrEqual(c.last_seq);
          expect(counter).toBe(list.filter((m) => m.recipient_id === member && m.seq > readSeq).length);
          // A member who wrote a message had read everything before it.
          const ownLast = list.filter((m) => m.sender_id === member).pop();
          if (ownLast) expect(readSeq).toBeGreaterThanOrEqual(ownLast.seq);
        }
        if (c.a_unread + c.b_unread > 0) {
          unread++;
          // Only the last writer's trailing messages are unread, by the other member.
          expect(c.a_unread === 0 || c.b_unread === 0).toBe(true);
          expect(list[list.length - 1].recipient_id).toBe(c.a_unread > 0 ? c.member_a : c.member_b);
        }
      }
      const exchanges = conversations.filter((c) => c.last_seq > 0).length;
      expect(unread).toBeGreaterThan(0);
      expect(unread).toBeLessThan(exchanges / 2);
    });

    it('is the conversations of the seed (conversations.mjs), whatever the batch size', () => {
      const expected = runModule<{ id: string; seq: number; senderId: string; clientId: string; content: string }[]>(`
        import { memberAt } from '$LIB/population.mjs';
        import { resolvedCities } from '$LIB/cities.mjs';
        import { swipeHistory } from '$LIB/history.mjs';
        import { seedConversations } from '$LIB/conversations.mjs';
        import { HiddenTastes } from '$LIB/taste.cjs';
        const seed = ${JSON.stringify(SEED)};
        const cities = resolvedCities();
        const now = Date.now();
        const members = [];
        for (let n = 1; n <= ${COUNT}; n++) members.push(memberAt(seed, n, { cities, now }));
        const { matches } = swipeHistory(seed, members, { tastes: new HiddenTastes(seed), now });
        const conversations = seedConversations(seed, matches, new Map(members.map((m) => [m.userId, m])), { now });
        process.stdout.write(JSON.stringify(conversations.flatMap((c) =>
          c.messages.map((m) => ({ id: c.id, seq: m.seq, senderId: m.senderId, clientId: m.clientId, content: m.content })))));
      `);
      const key = (m: { id: string; seq: number }) => `${m.id}|${String(m.seq).padStart(3, '0')}`;
      const stored = [...messages.values()]
        .flat()
        .map((m) => ({ id: m.conversation_id, seq: m.seq, senderId: m.sender_id, clientId: m.client_id, content: m.content }));
      expect(expected.length).toBeGreaterThan(0);
      expect([...expected].sort((x, y) => (key(x) < key(y) ? -1 : 1))).toEqual(stored);
    });

    it("leaves chat-service's database alone with --no-chats", async () => {
      const nowhere = new URL(h.chat.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const r = await runSeeder(seedArgs({ ...h, chat: { ...h.chat, url: nowhere.toString() } }, '--members', '30', '--no-chats'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('conversations:');
      const after = await query<{ n: number }>(h.chat.url, 'SELECT count(*)::int AS n FROM conversation');
      expect(after[0].n).toBe(conversations.length);
      // safety's pairs do not depend on the conversations: the new matches have theirs.
      expect(r.stdout).toContain('[seed] safety pairs:');
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
    });
  });

  describe("safety-service's pairs of matches written without match.created", () => {
    const pairIdOf = (m: { user_a: string; user_b: string }) => `${m.user_a}:${m.user_b}`;

    it("leaves safety-service's database alone with --no-safety", async () => {
      const nowhere = new URL(h.safety.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const before = await query<{ n: number }>(h.safety.url, 'SELECT count(*)::int AS n FROM pair');
      const r = await runSeeder(seedArgs({ ...h, safety: { ...h.safety, url: nowhere.toString() } }, '--members', '30', '--no-safety'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('safety pairs:');
      expect(await query(h.safety.url, 'SELECT count(*)::int AS n FROM pair')).toEqual(before);
    });

    it('backfills the pairs of an installation seeded before safety knew its matches, never over a block, an unmatch or a newer pair event', async () => {
      // An installation seeded before the seeder wrote pairs: safety knows none of the matches.
      await query(h.safety.url, 'DELETE FROM pair');
      const matches = await query<{ id: string; user_a: string; user_b: string }>(h.matching.url, 'SELECT id, user_a, user_b FROM match ORDER BY id');
      expect(matches.length).toBeGreaterThan(10);
      const [blocked, unmatched, stale, caughtUp] = matches;
      // Pair events safety recorded that matching has not applied yet (its match is still there):
      // a block of a match safety never knew and an unmatch (left without their versions here, so
      // the pair row's own state guards them), a block and unblock (version 2: the version guards).
      await query(h.safety.url, `INSERT INTO pair (pair_id, member_a, member_b, blocked_by) VALUES ($1, $2, $3, ARRAY[$2]::uuid[])`, [
        pairIdOf(blocked),
        blocked.user_a,
        blocked.user_b,
      ]);
      await query(
        h.safety.url,
        `INSERT INTO pair (pair_id, member_a, member_b, ended_match_id, ended_at) VALUES ($1, $2, $3, $4, now())`,
        [pairIdOf(unmatched), unmatched.user_a, unmatched.user_b, unmatched.id],
      );
      for (const m of [stale, caughtUp]) {
        await query(h.safety.url, 'INSERT INTO pair (pair_id, member_a, member_b) VALUES ($1, $2, $3)', [pairIdOf(m), m.user_a, m.user_b]);
      }
      await query(
        h.safety.url,
        `INSERT INTO aggregate_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2), ('pair', $2, 2)`,
        [pairIdOf(stale), pairIdOf(caughtUp)],
      );
      // A match made after matching applied the pair's block and unblock (version 2): it is live.
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [
        pairIdOf(caughtUp),
      ]);
      const guarded = await query(h.safety.url, 'SELECT * FROM pair WHERE pair_id = ANY($1) ORDER BY pair_id', [
        [blocked, unmatched, stale].map(pairIdOf),
      ]);

      const first = await backfillPairs(h);
      expect(first.stdout).toContain(`backfilling safety-service's pairs: matching-service holds ${matches.length} match(es), safety-service knows 0`);
      expect(first.result).toEqual({ backfilled: true, written: matches.length - 3 });
      expect(first.stdout).toContain(`safety-service: ${matches.length - 3} pair(s) received their match`);
      expect(await pairsVersusMatches(h)).toEqual({ missing: [blocked.id, unmatched.id, stale.id].sort(), extra: [] });
      expect(await query(h.safety.url, 'SELECT * FROM pair WHERE pair_id = ANY($1) ORDER BY pair_id', [[blocked, unmatched, stale].map(pairIdOf)])).toEqual(
        guarded,
      );

      // Again (the counts still differ): nothing more is written.
      expect((await backfillPairs(h)).result).toEqual({ backfilled: true, written: 0 });
      // Once matching applied those pair events (their matches deleted), a start only counts.
      await query(h.matching.url, 'DELETE FROM match WHERE id = ANY($1::uuid[])', [[blocked.id, unmatched.id, stale.id]]);
      const quiet = await backfillPairs(h);
      expect(quiet.result).toEqual({ backfilled: false, written: 0 });
      expect(quiet.stdout).not.toContain('[mate]');
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
    });

    it("writes the demo member's past matches into safety-service's pairs too (tools/scripts/lib/demo.mjs demoChats)", async () => {
      const demo = randomUUID();
      const partners = Array.from({ length: 5 }, (_, i) => ({ id: randomUUID(), name: `Partner${i}`, interests: ['Travel'], location: 'New York, NY' }));
      // One of them was blocked and unblocked by her once (pair version 2 in both services).
      const [a, b] = [demo, partners[0].id].sort();
      await query(h.safety.url, 'INSERT INTO pair (pair_id, member_a, member_b) VALUES ($1, $2, $3)', [`${a}:${b}`, a, b]);
      await query(h.safety.url, `INSERT INTO aggregate_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      const demoModule = `file://${path.join(ROOT, 'tools/scripts/lib/demo.mjs')}`;
      const urls = { matchingDbUrl: h.matching.url, chatDbUrl: h.chat.url, safetyDbUrl: h.safety.url, adminDbUrl: h.admin.url };
      const source = `import { demoChats } from '${demoModule}';
        const made = await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify(partners)});
        process.stdout.write(JSON.stringify(made));`;
      const r = await run(process.execPath, ['--input-type=module', '-e', source]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBe(5);

      const made = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY id',
        [demo],
      );
      expect(made).toHaveLength(5);
      const pairs = await query<{ pair_id: string; match_id: string; matched_at: Date; blocked_by: string[] }>(
        h.safety.url,
        'SELECT pair_id, match_id, matched_at, blocked_by FROM pair WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(pairs).toEqual(made.map((m) => ({ pair_id: pairIdOf(m), match_id: m.id, matched_at: m.created_at, blocked_by: [] })));
      const conversations = await query<{ match_id: string }>(
        h.chat.url,
        'SELECT match_id FROM conversation WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(conversations.map((c) => c.match_id)).toEqual(made.map((m) => m.id));
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
      // admin-service's screens count matches from its event store (issue 25): hers are there, once
      // each, with both likes of each match and her conversations' messages.
      const facts = await query<{ type: string; subject_id: string | null }>(
        h.admin.url,
        `SELECT type, subject_id FROM analytics_event WHERE user_id = $1 OR other_user_id = $1 ORDER BY type, subject_id`,
        [demo],
      );
      expect(facts.filter((f) => f.type === 'match.created').map((f) => f.subject_id)).toEqual(made.map((m) => m.id));
      expect(facts.filter((f) => f.type === 'like.created')).toHaveLength(10);
      const sent = await query<{ n: number }>(
        h.chat.url,
        'SELECT count(*)::int AS n FROM message m JOIN conversation c ON c.id = m.conversation_id WHERE c.member_a = $1 OR c.member_b = $1',
        [demo],
      );
      expect(facts.filter((f) => f.type === 'message.sent')).toHaveLength(sent[0].n);
      expect(new Set(facts.map((f) => f.type))).toEqual(new Set(['like.created', 'match.created', 'message.sent']));
    });
  });

  describe("call-service's matches of matches written without match.created", () => {
    const pairIdOf = (m: { user_a: string; user_b: string }) => `${m.user_a}:${m.user_b}`;
    /** call-service's own statements for a pair event (as its user.blocked handler applies one). */
    const callSql = () => require(CALL_PAIR_SQL_DIST) as { PAIR_STATE_SQL: string; ENDED_MATCH_SQL: string };
    async function pairEvent(m: { user_a: string; user_b: string }, blocked: boolean, version: number, endedMatchId?: string) {
      const { PAIR_STATE_SQL, ENDED_MATCH_SQL } = callSql();
      await query(h.call.url, PAIR_STATE_SQL, [m.user_a, m.user_b, blocked, new Date(), version]);
      if (endedMatchId) await query(h.call.url, ENDED_MATCH_SQL, [endedMatchId]);
    }

    it("leaves call-service's database alone with --no-call", async () => {
      const nowhere = new URL(h.call.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const before = await query<{ n: number }>(h.call.url, 'SELECT count(*)::int AS n FROM call_match');
      const r = await runSeeder(seedArgs({ ...h, call: { ...h.call, url: nowhere.toString() } }, '--members', '30', '--no-call'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('call-service matches:');
      expect(await query(h.call.url, 'SELECT count(*)::int AS n FROM call_match')).toEqual(before);
    });

    it('backfills the matches of an installation seeded before call-service knew them, idempotently, never making a blocked, unmatched or stale pair callable', async () => {
      // An installation seeded before the seeder wrote call-service's matches: it knows none.
      await query(h.call.url, 'DELETE FROM call_match');
      const matches = await query<{ id: string; user_a: string; user_b: string }>(
        h.matching.url,
        `SELECT id, user_a, user_b FROM match m
          WHERE NOT EXISTS (SELECT 1 FROM applied_version v WHERE v.aggregate_type = 'pair' AND v.aggregate_id = m.user_a::text || ':' || m.user_b::text)
          ORDER BY id`,
      );
      expect(matches.length).toBeGreaterThan(10);
      const [blocked, unmatched, stale, caughtUp] = matches;
      // Pair events call-service applied that matching has not yet (its match is still there): a
      // block, an unmatch (naming the match as ended), a block and unblock (version 2).
      await pairEvent(blocked, true, 1, blocked.id);
      await pairEvent(unmatched, false, 1, unmatched.id);
      await pairEvent(stale, true, 1);
      await pairEvent(stale, false, 2);
      // A match made after matching applied the pair's block and unblock (version 2): it is live.
      await pairEvent(caughtUp, true, 1);
      await pairEvent(caughtUp, false, 2);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [
        pairIdOf(caughtUp),
      ]);
      const held = (await query<{ n: number }>(h.matching.url, 'SELECT count(*)::int AS n FROM match'))[0].n;

      const first = await backfillCalls(h);
      expect(first.stdout).toContain(`backfilling call-service's matches: matching-service holds ${held} match(es), call-service knows 0`);
      expect(first.result).toEqual({ backfilled: true, written: held });
      expect(first.stdout).toContain(`call-service: ${held} match(es) received`);
      expect(await callMatchesVersusMatches(h)).toEqual({ missing: [], extra: [] });
      // call-service's rule decides: the pair events it applied keep those pairs from calling.
      for (const m of [blocked, unmatched, stale]) expect({ m: m.id, callable: await callable(h, m.user_a, m.user_b) }).toEqual({ m: m.id, callable: false });
      expect(await callable(h, caughtUp.user_a, caughtUp.user_b)).toBe(true);
      expect(await callable(h, matches[4].user_a, matches[4].user_b)).toBe(true);

      // Again (the counts still differ while matching has not applied those events): nothing is written.
      const rows = await query(h.call.url, 'SELECT * FROM call_match ORDER BY match_id');
      expect((await backfillCalls(h)).result).toEqual({ backfilled: true, written: 0 });
      expect(await query(h.call.url, 'SELECT * FROM call_match ORDER BY match_id')).toEqual(rows);
      // Once matching applied them (their matches deleted), a start only counts, and they stay not callable.
      await query(h.matching.url, 'DELETE FROM match WHERE id = ANY($1::uuid[])', [[blocked.id, unmatched.id, stale.id]]);
      const quiet = await backfillCalls(h);
      expect(quiet.result).toEqual({ backfilled: false, written: 0 });
      expect(quiet.stdout).not.toContain('[mate]');
      expect(await callMatchesVersusMatches(h)).toEqual({ missing: [], extra: [blocked.id, unmatched.id, stale.id].sort() });
      for (const m of [blocked, unmatched, stale]) expect(await callable(h, m.user_a, m.user_b)).toBe(false);
    });

    it("writes the demo member's past matches into call-service too (demoChats); her blocked match stays not callable", async () => {
      const demo = randomUUID();
      const partners = Array.from({ length: 6 }, (_, i) => ({ id: randomUUID(), name: `Caller${i}`, interests: ['Travel'], location: 'New York, NY' }));
      // One of them was blocked and unblocked by her once (pair version 2 in both services).
      const [a, b] = [demo, partners[0].id].sort();
      await pairEvent({ user_a: a, user_b: b }, true, 1);
      await pairEvent({ user_a: a, user_b: b }, false, 2);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      const demoModule = `file://${path.join(ROOT, 'tools/scripts/lib/demo.mjs')}`;
      const urls = { matchingDbUrl: h.matching.url, chatDbUrl: h.chat.url, safetyDbUrl: h.safety.url, callDbUrl: h.call.url };
      const source = `import { demoChats } from '${demoModule}';
        const made = await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify(partners.slice(0, 5))});
        process.stdout.write(JSON.stringify(made));`;
      const r = await run(process.execPath, ['--input-type=module', '-e', source]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBe(5);
      const made = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY id',
        [demo],
      );
      expect(made).toHaveLength(5);
      const known = await query<{ match_id: string; matched_at: Date; pair_version: number }>(
        h.call.url,
        'SELECT match_id, matched_at, pair_version FROM call_match WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(known).toEqual(
        made.map((m) => ({ match_id: m.id, matched_at: m.created_at, pair_version: pairIdOf(m) === `${a}:${b}` ? 2 : 0 })),
      );
      for (const p of partners.slice(0, 5)) expect(await callable(h, demo, p.id)).toBe(true);

      // Her call history (DEMO_CALLS): six past calls with her matches, each after its match was
      // made, in the shape call-service records (only completed calls were answered and last).
      const calls = await query<{ caller_id: string; recipient_id: string; status: string; started_at: Date; answered_at: Date | null; ended_at: Date; duration_seconds: number }>(
        h.call.url,
        'SELECT caller_id, recipient_id, status, started_at, answered_at, ended_at, duration_seconds FROM call_record WHERE caller_id = $1 OR recipient_id = $1 ORDER BY started_at DESC',
        [demo],
      );
      expect(calls.map((c) => c.status)).toEqual(['completed', 'missed', 'completed', 'rejected', 'completed', 'failed']);
      const matchedAt = new Map(made.map((m) => [m.user_a === demo ? m.user_b : m.user_a, m.created_at.getTime()]));
      for (const c of calls) {
        const partner = c.caller_id === demo ? c.recipient_id : c.caller_id;
        expect(c.started_at.getTime()).toBeGreaterThan(matchedAt.get(partner) ?? Infinity);
        expect(c.duration_seconds > 0).toBe(c.status === 'completed');
        expect(c.answered_at !== null).toBe(c.status === 'completed');
        expect(c.ended_at.getTime()).toBeGreaterThanOrEqual(c.started_at.getTime());
      }
      // She placed some and received some.
      expect(calls.filter((c) => c.caller_id === demo)).toHaveLength(3);
      expect(calls.filter((c) => c.recipient_id === demo)).toHaveLength(3);

      // Her blocked match (demoBlock): written like the others, then blocked through the API, so
      // call-service applies user.blocked naming it as ended (matching deletes it later).
      const blockedSource = `import { demoChats } from '${demoModule}';
        await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify([partners[5]])}, [{ matchedAgo: 9 * 86400000, count: 5, lastAgo: 8 * 86400000, firstWriter: 'her' }]);`;
      const rb = await run(process.execPath, ['--input-type=module', '-e', blockedSource]);
      expect(rb.stderr).toBe('');
      expect(rb.code).toBe(0);
      const [x, y] = [demo, partners[5].id].sort();
      const [blockedMatch] = await query<{ id: string }>(h.matching.url, 'SELECT id FROM match WHERE user_a = $1 AND user_b = $2', [x, y]);
      expect(await callable(h, demo, partners[5].id)).toBe(true);
      await pairEvent({ user_a: x, user_b: y }, true, 1, blockedMatch.id);
      expect(await callable(h, demo, partners[5].id)).toBe(false);
      // A start before matching applied the block (its match still there) does not make it callable,
      await backfillCalls(h);
      expect(await callable(h, demo, partners[5].id)).toBe(false);
      // nor one after.
      await query(h.matching.url, 'DELETE FROM match WHERE id = $1', [blockedMatch.id]);
      await backfillCalls(h);
      expect(await callable(h, demo, partners[5].id)).toBe(false);
    });
  });
});
