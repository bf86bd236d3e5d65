import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { ROLE_MEMBER } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { builtMain, issueSession, runNode, WORKSPACE } from '@mate/server-kit/testing';
import type { ChaosPlatform, FaultPlatform } from './platform';

/**
 * The members of a run. They are written in bulk by the demo seeder (tools/seed: accounts with
 * the demo password, onboarded profiles with an approved photo, preferences), made to fit each
 * other (one place, no filters), and announced to every consumer the way `npm start` backfills a
 * seeded installation: auth-service's and profile-service's own `republish` commands, whose
 * events the running relays publish. A run then signs them in through the gateway (the chaos
 * population) or mints their sessions in bulk (the soak's 1,000).
 */

/** The seeder's password of every member (tools/seed/lib/run.mjs). */
export const SEEDED_PASSWORD = 'mate-demo-2026';
/** The seeder's e-mail domain of every member it writes (tools/seed/lib/population.mjs). */
const SEEDED_EMAIL_DOMAIN = 'demo.mate.local';

export interface SeededMember {
  userId: string;
  email: string;
  name: string;
}

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(sql, values)).rows as T[];
  } finally {
    await db.end();
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The consumers of profile.updated that keep their own copy of each member (tools/seed/hook.mjs). */
const PROFILE_CONSUMERS = ['matching-service', 'chat-service', 'safety-service', 'call-service', 'notification-service'];

export async function seedMembers(platform: FaultPlatform, count: number, log: (l: string) => void): Promise<SeededMember[]> {
  const db = platform.databases;
  const started = Date.now();
  await runNode(
    [
      path.join(WORKSPACE, 'tools/seed/seed.mjs'),
      '--members', String(count),
      '--seed', platform.id,
      '--no-swipes',
      '--no-analytics',
      '--pool-threshold', '0',
      '--pool-size', String(Math.min(20, count)),
      '--auth-db', db['auth-service'],
      '--profile-db', db['profile-service'],
      '--matching-db', db['matching-service'],
      '--chat-db', db['chat-service'],
      '--safety-db', db['safety-service'],
      '--call-db', db['call-service'],
      '--admin-db', db['admin-service'],
      '--photo-dir', platform.photoDir,
    ],
    {},
  );
  // Everyone in one place, of an age everyone accepts, with no filter: any two members fit, so
  // the pairs the population makes can like each other (matching checks its rules on a like).
  await query(
    db['profile-service'],
    `UPDATE profiles SET location = 'New York, NY', location_lat = 40.71427, location_lng = -74.00597,
            location_resolved = true, age = 30`,
  );
  await query(
    db['profile-service'],
    `UPDATE preferences SET min_age = 18, max_age = 99, max_distance = 100, gender_preference = '{}',
            dealbreakers = '{}', min_height = NULL, max_height = NULL, education_preference = '{}',
            relationship_goal_preference = '{}', smoking_preference = '{}', drinking_preference = '{}',
            exercise_preference = '{}', pets_preference = '{}', required_interests = '{}'`,
  );
  await query(db['auth-service'], `UPDATE users SET age = 30`);
  const env = { ...platform.redisEnv, LOG_LEVEL: 'warn' };
  await Promise.all(
    ['auth-service', 'profile-service'].map((service) => runNode([builtMain(service), 'republish'], { ...env, DATABASE_URL: db[service] })),
  );
  await waitFor(
    async () => {
      const [{ n }] = await query<{ n: number }>(
        db['matching-service'],
        `SELECT count(*)::int AS n FROM candidate WHERE suggestible AND min_age = 18 AND cardinality(gender_preference) = 0`,
      );
      if (n < count) return false;
      for (const service of PROFILE_CONSUMERS) {
        const [{ held }] = await query<{ held: number }>(
          db[service],
          `SELECT count(*)::int AS held FROM applied_version WHERE aggregate_type = 'profile'`,
        );
        if (held < count) return false;
      }
      return true;
    },
    // The consumers apply about 20 members a second each on a loaded 2-core machine.
    180_000 + count * 300,
    `every consumer to hold the ${count} seeded members`,
  );
  log(`seeded ${count} members and every consumer holds them (${Date.now() - started} ms)`);
  // Only the seeder's accounts (its e-mail domain, tools/seed/lib/population.mjs EMAIL_DOMAIN): a
  // platform that ran other journeys first (npm run scale:check) holds their accounts too.
  return query<SeededMember>(
    db['auth-service'],
    `SELECT id AS "userId", email, name FROM users WHERE email LIKE '%@${SEEDED_EMAIL_DOMAIN}' ORDER BY email`,
  );
}

export interface SignedIn {
  userId: string;
  name: string;
  token: string;
}

/** Signs a member in through the gateway, as the app does. */
export async function signIn(gatewayUrl: string, member: SeededMember, fetcher: typeof fetch): Promise<SignedIn> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetcher(`${gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.email, password: SEEDED_PASSWORD }),
    });
    if (res.ok) {
      const body = (await res.json()) as { token: string; user: { id: string } };
      return { userId: body.user.id, name: member.name, token: body.token };
    }
    if (attempt >= 3 || res.status < 500) throw new Error(`sign-in of ${member.email} answered ${res.status}: ${await res.text()}`);
  }
}

/** Live sessions minted straight into the platform's Redis, as auth-service's sign-in stores them (the soak's 1,000). */
export async function mintSessions(platform: ChaosPlatform, members: SeededMember[]): Promise<SignedIn[]> {
  const redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 2 });
  try {
    const store = new SessionStore(redis, platform.keyPrefix);
    const out: SignedIn[] = [];
    for (const m of members) {
      const s = await issueSession(store, platform.jwtSecret, m.userId as `${string}-${string}-${string}-${string}-${string}`, ROLE_MEMBER);
      out.push({ userId: m.userId, name: m.name, token: s.token });
    }
    return out;
  } finally {
    redis.disconnect();
  }
}
