import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
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
  SMOKING_VALUES,
  photoFileUrl,
  type PhotoDto,
  type PhotoUploadResponse,
} from '@mate/contracts';
import { type TestDatabase } from '@mate/testing';
import { query, runModule, runSeeder } from './helpers';
import {
  buildServices,
  createPair,
  distReady,
  dropPair,
  MEMBERS,
  photoFile,
  SEED,
  seedArgs,
  SIZES,
  type Pair,
  type PhotoRow,
  type ProfileRow,
} from './seed-setup';
import { ServiceRun } from './service-processes';

/*
 * A seeded installation (seed-setup.ts): its members' accounts, profiles, coordinates, photos and
 * preferences, checked against the built profile-service running on it where it matters (its
 * geocoding of a member's location, an upload of the same picture, a member deleting a pooled
 * photo, its file route: service-processes.ts); the same result again for the same --seed,
 * --if-empty, and the photo pool.
 */

describe('npm run seed', () => {
  let a: Pair;
  let b: Pair;
  let firstRun: Awaited<ReturnType<typeof runSeeder>>;

  beforeAll(async () => {
    if (!distReady()) await buildServices();
    [a, b] = await Promise.all([createPair('a'), createPair('b')]);
    firstRun = await runSeeder(seedArgs(a, '--members', String(MEMBERS), '--seed', SEED));
  });

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).flatMap(dropPair));
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
    const rows = await query<ProfileRow>(a.profile.url, 'SELECT location, location_lat, location_lng FROM profiles');
    const all = runModule<{ texts: string[]; lat: number; lng: number }[]>(
      `import { resolvedCities } from '$LIB/cities.mjs'; process.stdout.write(JSON.stringify(resolvedCities()));`,
    );
    const texts = new Map<string, { lat: number; lng: number }>();
    for (const c of all) for (const t of c.texts) texts.set(t, { lat: c.lat, lng: c.lng });
    expect(all).toHaveLength(9);
    for (const p of rows) {
      expect(texts.get(p.location)).toEqual({ lat: p.location_lat, lng: p.location_lng });
    }
    // Every way the seeder writes a place resolves, in profile-service, to the coordinates it
    // stores: a member sets each text as their location (PUT /api/profile/me, which geocodes it),
    // and gets their own location back at the end.
    const [member] = await query<{ user_id: string; location: string; location_lat: number; location_lng: number; location_resolved: boolean }>(
      a.profile.url,
      'SELECT user_id, location, location_lat, location_lng, location_resolved FROM profiles ORDER BY user_id LIMIT 1',
    );
    const stored = async () =>
      (
        await query<{ location: string; location_lat: number | null; location_lng: number | null; location_resolved: boolean | null }>(
          a.profile.url,
          'SELECT location, location_lat, location_lng, location_resolved FROM profiles WHERE user_id = $1',
          [member.user_id],
        )
      )[0];
    const run = await ServiceRun.open('seed_geocoding');
    try {
      const profile = await run.start('profile-service', { DATABASE_URL: a.profile.url, PHOTO_DIR: a.photoDir });
      const locate = (location: string) => run.request(profile, member.user_id, 'PUT', '/api/profile/me', { json: { location } });
      try {
        for (const [text, { lat, lng }] of texts) {
          const res = await locate(text);
          expect({ text, status: res.status }).toEqual({ text, status: 200 });
          expect({ text, ...(await stored()) }).toMatchObject({ text, location_lat: lat, location_lng: lng, location_resolved: true });
        }
      } finally {
        expect((await locate(member.location)).status).toBe(200);
      }
      const { location, location_lat, location_lng, location_resolved } = member;
      expect(await stored()).toEqual({ location, location_lat, location_lng, location_resolved });
    } finally {
      await run.close();
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
    const [first] = await query<{ id: string; email: string }>(a.auth.url, 'SELECT id, email FROM users ORDER BY email LIMIT 1');
    const n = Number(first.email.split('@')[0].split('.').at(-1));
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
    const photosOf = () =>
      query<{ id: string; order: number; is_primary: boolean }>(a.profile.url, 'SELECT id, "order", is_primary FROM photos WHERE user_id = $1 ORDER BY "order"', [
        first.id,
      ]);
    const seeded = await photosOf();
    expect(seeded.map((p) => p.id)).toEqual(uploads.map((u) => u.id));
    // The member uploads each picture (POST /api/photos/upload, as the app does): the files
    // profile-service stores for it are the seeded ones, byte for byte. Each upload is deleted
    // again (DELETE /api/photos/<id>), so the member keeps exactly their seeded photos.
    const run = await ServiceRun.open('seed_uploads');
    try {
      const profile = await run.start('profile-service', { DATABASE_URL: a.profile.url, PHOTO_DIR: a.photoDir });
      for (const upload of uploads) {
        const form = new FormData();
        form.append('photo', new Blob([Buffer.from(upload.png, 'base64')], { type: 'image/png' }), 'photo.png');
        const res = await run.request(profile, first.id, 'POST', '/api/photos/upload', { form });
        expect(res.status).toBe(201);
        const { photo } = (await res.json()) as PhotoUploadResponse;
        try {
          const [row] = await query<Pick<PhotoRow, 'storage_key'>>(a.profile.url, 'SELECT storage_key FROM photos WHERE id = $1', [photo.id]);
          for (const size of SIZES) {
            const [uploaded, stored] = await Promise.all([
              readFile(photoFile(a.photoDir, row, size)),
              readFile(photoFile(a.photoDir, { storage_key: `photos/${upload.id}` }, size)),
            ]);
            expect(stored.equals(uploaded)).toBe(true);
          }
        } finally {
          expect((await run.request(profile, first.id, 'DELETE', `/api/photos/${photo.id}`)).status).toBe(200);
        }
      }
    } finally {
      await run.close();
    }
    expect(await photosOf()).toEqual(seeded);
  });

  it('has its photos served by profile-service at GET /api/photos/files/<id>/<size>.webp', async () => {
    const run = await ServiceRun.open('seed_files');
    try {
      const service = await run.start('profile-service', { DATABASE_URL: a.profile.url, PHOTO_DIR: a.photoDir });
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
      await run.close();
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

    // Its member deletes it (DELETE /api/photos/<id>, as the app does): profile-service removes
    // its row and its files.
    const run = await ServiceRun.open('seed_delete');
    try {
      const profile = await run.start('profile-service', { DATABASE_URL: b.profile.url, PHOTO_DIR: b.photoDir });
      const res = await run.request(profile, deleted.user_id, 'DELETE', `/api/photos/${deleted.id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as PhotoDto[]).map((p) => p.id)).not.toContain(deleted.id);
    } finally {
      await run.close();
    }
    expect(await query(b.profile.url, 'SELECT id FROM photos WHERE id = $1', [deleted.id])).toEqual([]);

    expect(existsSync(path.join(b.photoDir, deleted.storage_key))).toBe(false);
    for (const size of SIZES) expect(existsSync(photoFile(b.photoDir, kept, size))).toBe(true);
    expect((await readFile(photoFile(b.photoDir, kept, 'large'))).equals(keptBytes)).toBe(true);
  });
});
