import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ROLE_ADMIN } from '@mate/contracts';
import type { ServiceProcess } from '@mate/server-kit/testing';
import { fitsBothWays, mutualLikes, query, ROOT, run, runModule, runSeeder, type Run, type RuleMember, type SwipeRow } from './helpers';
import {
  callMatchesVersusMatches,
  dropPair,
  HISTORY_MEMBERS,
  pairsVersusMatches,
  SEED,
  seedArgs,
  seedHistory,
  type Pair,
} from './seed-setup';
import { CallService, ServiceRun } from './service-processes';

/*
 * The swipe history the seeder writes (seed-setup.ts seedHistory): swipes and matches within the
 * hard rules, the history of the seed, the matches told to call- and safety-service (call-service,
 * built and running, lets each pair call), and admin-service's analytics history (read through the
 * built admin-service's analytics API). What chat-, safety- and call-service hold of it in detail:
 * seed-history-services.integration-spec.ts.
 */

describe('npm run seed: the swipe history', () => {
  const COUNT = HISTORY_MEMBERS;
  let h: Pair;
  let seeded: Run;
  let swipes: SwipeRow[];

  beforeAll(async () => {
    ({ h, seeded, swipes } = await seedHistory('history'));
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
    /** The built admin-service on the seeded analytics store, asked as an admin. */
    let admin: ServiceRun;
    let service: ServiceProcess;
    const ADMIN = randomUUID();
    /** The analytics calls of a period (`?days=`); the others take no parameter. */
    const PERIODS = new Set(['user-growth', 'engagement', 'matches', 'report-trends']);

    beforeAll(async () => {
      admin = await ServiceRun.open('seed_analytics');
      service = await admin.start('admin-service', { DATABASE_URL: h.admin.url });
    });

    afterAll(async () => {
      await admin?.close();
    });

    /** One analytics call of admin-service (GET /api/admin/analytics/<name>) as an admin: its rows. */
    async function metric<T = Record<string, unknown>>(name: string, days = 30): Promise<T[]> {
      const res = await admin.request(service, ADMIN, 'GET', `/api/admin/analytics/${name}${PERIODS.has(name) ? `?days=${days}` : ''}`, {
        role: ROLE_ADMIN,
      });
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      const body = (await res.json()) as T | T[];
      return Array.isArray(body) ? body : [body];
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
    // The built call-service on the seeded call database, asked the way a member asks: a call.
    const calls = await CallService.start(h);
    try {
      for (const m of matches) expect(await calls.callable(m.user_a, m.user_b)).toBe(true);
    } finally {
      await calls.stop();
    }
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
});
