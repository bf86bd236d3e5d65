import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PHOTO_SIZES, type PhotoSize } from '@mate/contracts';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { query, ROOT, run, runSeeder, type Run, type SwipeRow } from './helpers';

/*
 * What the seeder's integration specs share (seed-members, seed-history, seed-history-services):
 * the seeder against real databases migrated by the services themselves (`main.js migrate` of
 * the built auth-service, profile-service, matching-service, chat-service, safety-service,
 * call-service and admin-service), checked against those services running where it matters
 * (service-processes.ts: the built services in their own processes, asked through their HTTP
 * and socket APIs; no module of apps/ or dist/apps is loaded): profile-service's geocoding
 * (coordinates), photo uploads (bytes), photo deletion and file route, admin-service's analytics
 * and call-service's rule of who may call.
 */

export const SERVICES = ['auth-service', 'profile-service', 'matching-service', 'chat-service', 'safety-service', 'call-service', 'admin-service'] as const;
/** The gateway, built with the services: call-service is asked through it (service-processes.ts). */
export const BUILT = [...SERVICES, 'gateway'] as const;
/** Where the build puts a file of a service's sources (`src/<file>`, as .js). */
const builtSource = (svc: string, file: string) => path.join(ROOT, 'dist/apps', svc, 'apps', svc, 'src', file);

/** A service's migration sources, relative to its src (in `src/migrations` or a feature's `migrations` folder). */
export function migrationSources(svc: string): string[] {
  const src = path.join(ROOT, 'apps', svc, 'src');
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && path.basename(path.dirname(f)) === 'migrations')
    .map((f) => f.split(path.sep).join('/'));
}
export const SIZES = Object.keys(PHOTO_SIZES) as PhotoSize[];
export const SEED = '7';
export const MEMBERS = 40;

/** The built services and gateway are there, each service with every migration of its sources. */
export function distReady(): boolean {
  if (BUILT.some((svc) => !existsSync(path.join(ROOT, 'dist/apps', svc, 'main.js')))) return false;
  return SERVICES.every((svc) => migrationSources(svc).every((f) => existsSync(builtSource(svc, f.replace(/\.ts$/, '.js')))));
}

export async function buildServices(): Promise<void> {
  const nx = path.join(ROOT, 'node_modules/.bin/nx');
  const r = await run(nx, ['run-many', '-t', 'build', '-p', ...BUILT], {
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
  });
  if (r.code !== 0) throw new Error(`building ${BUILT.join(', ')} failed:\n${r.stdout}\n${r.stderr}`);
}

export async function migrate(svc: string, url: string): Promise<void> {
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
export interface Pair {
  auth: TestDatabase;
  profile: TestDatabase;
  matching: TestDatabase;
  chat: TestDatabase;
  safety: TestDatabase;
  call: TestDatabase;
  admin: TestDatabase;
  photoDir: string;
}

export async function createPair(label: string): Promise<Pair> {
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

export const dropPair = (p: Pair) => [
  p.auth.drop(),
  p.profile.drop(),
  p.matching.drop(),
  p.chat.drop(),
  p.safety.drop(),
  p.call.drop(),
  p.admin.drop(),
  rm(p.photoDir, { recursive: true, force: true }),
];

export const seedArgs = (pair: Pair, ...extra: string[]) => [
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
export async function pairsVersusMatches(p: Pair): Promise<{ missing: string[]; extra: string[] }> {
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
export async function backfillPairs(p: Pair): Promise<{ result: { backfilled: boolean; written: number }; stdout: string }> {
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
export async function callMatchesVersusMatches(p: Pair): Promise<{ missing: string[]; extra: string[] }> {
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

/** backfillCallMatches of hook.mjs (ESM) in its own process (as `npm start` runs it): what it resolved and printed. */
export async function backfillCalls(p: Pair): Promise<{ result: { backfilled: boolean; written: number }; stdout: string }> {
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

export interface ProfileRow {
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
export interface PhotoRow {
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

export const photoFile = (dir: string, photo: Pick<PhotoRow, 'storage_key'>, size: PhotoSize) =>
  path.join(dir, photo.storage_key, `${size}.webp`);

/** Enough members for a history: a member swipes only people in reach whom they fit and who fit them. */
export const HISTORY_MEMBERS = 1000;

/** An installation seeded with a swipe history, and the swipes matching-service holds. */
export interface SeededHistory {
  h: Pair;
  seeded: Run;
  swipes: SwipeRow[];
}

/** The databases of one installation (`label`) seeded with HISTORY_MEMBERS members and their history. */
export async function seedHistory(label: string): Promise<SeededHistory> {
  if (!distReady()) await buildServices();
  const h = await createPair(label);
  // Photos from a pool of four pictures (cheap); batches of 300, so the history's window of
  // members spans several batches.
  const seeded = await runSeeder(
    seedArgs(h, '--members', String(HISTORY_MEMBERS), '--seed', SEED, '--pool-threshold', '0', '--pool-size', '4', '--batch-size', '300'),
  );
  const swipes = (
    await query<{ swiper_id: string; target_id: string; liked: boolean }>(
      h.matching.url,
      'SELECT swiper_id, target_id, liked FROM swipe ORDER BY swiper_id, target_id',
    )
  ).map((r) => ({ swiperId: r.swiper_id, targetId: r.target_id, liked: r.liked }));
  return { h, seeded, swipes };
}
