import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { educationValueOf, relationshipGoalsOf, type FilterPreferencesDto } from '@mate/contracts';

/** The repository root (the seeder runs from there, as `npm run seed` does). */
export const ROOT = path.resolve(__dirname, '../../..');
export const SEED_SCRIPT = path.join(ROOT, 'tools/seed/seed.mjs');

/**
 * Runs an ES module snippet (the seeder is plain Node ESM, which Jest's CommonJS runtime does not
 * load) and returns what it printed as JSON. `lib` is the seeder's lib folder, as a file URL.
 */
export function runModule<T>(source: string): T {
  const lib = `file://${path.join(ROOT, 'tools/seed/lib')}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source.replaceAll('$LIB', lib)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`module snippet failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One query on its own connection (the seeder's databases, from outside the seeder). */
export async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs a command to its end without blocking the test's event loop. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node tools/seed/seed.mjs <args>`. */
export function runSeeder(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run(process.execPath, [SEED_SCRIPT, ...args], env);
}

/** What the hard rules of matching read of a member: the profile and the preferences. */
export interface RuleMember {
  userId: string;
  age: number;
  gender: string;
  lat: number;
  lng: number;
  height: number | null;
  education: string | null;
  lookingFor: string;
  interests: string[];
  smoking: string | null;
  drinking: string | null;
  exercise: string | null;
  pets: string | null;
  /** The match fields and the filters of spec 001 §3, every one present (null: no bound). */
  preferences: Required<FilterPreferencesDto>;
}

const interestedInReading = (gender: string) => (gender === 'prefer-not-to-say' ? 'other' : gender);

function greatCircleKm(a: RuleMember, b: RuleMember): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * matching-service's hard rules for one direction (`chooser` accepts `member`), written from the
 * issue and the contracts' mappings, independently of the seeder's rules.mjs: the tests' oracle.
 */
function accepts(chooser: RuleMember, member: RuleMember): boolean {
  const p = chooser.preferences;
  const list = (values: string[], value: string | null) => values.length === 0 || (value !== null && values.includes(value));
  const goals = relationshipGoalsOf(member.lookingFor);
  return (
    member.age >= p.minAge &&
    member.age <= p.maxAge &&
    list(p.genderPreference.map(interestedInReading), interestedInReading(member.gender)) &&
    greatCircleKm(chooser, member) <= p.maxDistance &&
    list(p.educationPreference, educationValueOf(member.education)) &&
    (p.relationshipGoalPreference.length === 0 || p.relationshipGoalPreference.some((g) => goals.includes(g))) &&
    list(p.smokingPreference, member.smoking) &&
    list(p.drinkingPreference, member.drinking) &&
    list(p.exercisePreference, member.exercise) &&
    list(p.petsPreference, member.pets) &&
    (p.minHeight === null || (member.height !== null && member.height >= p.minHeight)) &&
    (p.maxHeight === null || (member.height !== null && member.height <= p.maxHeight)) &&
    p.requiredInterests.every((i) => member.interests.includes(i))
  );
}

/** Both members' rules accept the other: the pair could meet in Discover. */
export const fitsBothWays = (a: RuleMember, b: RuleMember) => a.userId !== b.userId && accepts(a, b) && accepts(b, a);

/** One swipe of the seeded history. */
export interface SwipeRow {
  swiperId: string;
  targetId: string;
  liked: boolean;
}

/** The matches the swipes imply: every pair that liked each other, as `<smaller id>|<larger id>`, sorted. */
export function mutualLikes(swipes: SwipeRow[]): string[] {
  const likes = new Set(swipes.filter((s) => s.liked).map((s) => `${s.swiperId}|${s.targetId}`));
  return [...likes]
    .map((pair) => pair.split('|'))
    .filter(([a, b]) => a < b && likes.has(`${b}|${a}`))
    .map(([a, b]) => `${a}|${b}`)
    .sort();
}
