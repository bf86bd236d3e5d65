import path from 'node:path';
import { DEPLOYED_SERVICES, EVENT_CATALOGUE, type EventName, type ServiceName } from '@mate/contracts';
import { startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { query, ROOT, run } from './helpers';

/*
 * `npm start`'s step after seeding (tools/seed/hook.mjs backfillConsumers) against the built
 * producers and every deployed consumer of what they republish, running as processes: the
 * seeded members reach profile-service as events, exactly once each, every consumer of
 * profile.updated (matching-service's candidate table, chat-service's members, safety-service's
 * members, ...) from profile-service's events, and `npm run events -- status` ends caught up.
 */

/** The services whose `republish` the backfill runs (hook.mjs REPUBLISHERS). */
const PRODUCERS = ['auth-service', 'profile-service'] as const satisfies readonly ServiceName[];
/** What their `republish` commands emit (the lines the test reads below). */
const REPUBLISHED: readonly EventName[] = ['user.registered', 'user.verified', 'profile.updated', 'preferences.updated'];
/**
 * The producers and every deployed consumer of a republished event, from the catalogue: a service
 * that starts consuming profile.updated is started here too (else its queue never drains and the
 * backfill never reads caught up).
 */
const SERVICES: readonly ServiceName[] = [
  ...new Set<ServiceName>([...PRODUCERS, ...REPUBLISHED.flatMap((name) => EVENT_CATALOGUE[name].consumers)]),
].filter((svc) => DEPLOYED_SERVICES.some((d) => d.name === svc));
/** The consumers of profile.updated: each applies every seeded member's profile once. */
const PROFILE_CONSUMERS = EVENT_CATALOGUE['profile.updated'].consumers.filter((svc) => SERVICES.includes(svc));
const MEMBERS = 15;
const JWT_SECRET = 'backfill-test-jwt-secret-0123456789';

/** Runs backfillConsumers of hook.mjs (ESM) in its own process and answers what it resolved. */
async function backfill(options: object): Promise<{ result: { republished: boolean; caughtUp: boolean }; stdout: string }> {
  const hook = `file://${path.join(ROOT, 'tools/seed/hook.mjs')}`;
  const source = `import { backfillConsumers } from '${hook}';
    const result = await backfillConsumers(${JSON.stringify(options)});
    process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
  const r = await run(process.execPath, ['--input-type=module', '-e', source]);
  if (r.code !== 0) throw new Error(`backfill failed:\n${r.stdout}\n${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return { result: JSON.parse(line?.slice('RESULT '.length) ?? 'null'), stdout: r.stdout };
}

describe('backfill after seeding (npm start)', () => {
  const databases = new Map<ServiceName, TestDatabase>();
  const dbUrl = (svc: ServiceName) => databases.get(svc)?.url ?? '';
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  const processes: ServiceProcess[] = [];

  async function start(svc: ServiceName) {
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: dbUrl(svc),
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      JWT_SECRET,
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    processes.push(await startServiceProcess(`dist/apps/${svc}/main.js`, await freePort(), env, { health: '/health/ready' }));
  }

  beforeAll(async () => {
    // Always through nx: unchanged services come from its cache, changed ones are rebuilt (a
    // stale build of a consumer would leave its queue undrained).
    const nx = path.join(ROOT, 'node_modules/.bin/nx');
    const built = await run(nx, ['run-many', '-t', 'build', '-p', ...SERVICES], { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' });
    if (built.code !== 0) throw new Error(`building ${SERVICES.join(', ')} failed:\n${built.stdout}\n${built.stderr}`);
    ns = await createTestRedisNamespace('backfill');
    await Promise.all(
      SERVICES.map(async (svc) => databases.set(svc, await createTestDatabase(`backfill_${svc.replace(/-service$/, '')}`))),
    );
    // Each service's own database: the migrations and, below, the starts run side by side.
    await Promise.all(
      SERVICES.map(async (svc) => {
        const r = await run(process.execPath, [path.join(ROOT, 'dist/apps', svc, 'main.js'), 'migrate'], {
          DATABASE_URL: dbUrl(svc),
          LOG_LEVEL: 'warn',
        });
        if (r.code !== 0) throw new Error(`${svc} migrate failed:\n${r.stdout}\n${r.stderr}`);
      }),
    );
    const seeded = await run(process.execPath, [
      path.join(ROOT, 'tools/seed/seed.mjs'),
      '--members',
      String(MEMBERS),
      '--no-photos',
      '--auth-db',
      dbUrl('auth-service'),
      '--profile-db',
      dbUrl('profile-service'),
      ...(databases.has('admin-service') ? ['--admin-db', dbUrl('admin-service')] : ['--no-analytics']),
    ]);
    if (seeded.code !== 0) throw new Error(`seeding failed:\n${seeded.stderr}`);
    await Promise.all(SERVICES.map(start));
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await ns?.cleanup();
    await Promise.all([...databases.values()].map((db) => db.drop()));
  });

  it('starts the producers and every deployed consumer of what they republish; hook.mjs knows the consumers of profile.updated', async () => {
    expect(SERVICES).toEqual(expect.arrayContaining(['auth-service', 'profile-service', 'matching-service', 'chat-service', 'safety-service']));
    expect(PROFILE_CONSUMERS).toEqual(expect.arrayContaining(['matching-service', 'chat-service', 'safety-service']));
    // The launcher cannot import the catalogue: its copy must be the catalogue's.
    const hook = `file://${path.join(ROOT, 'tools/seed/hook.mjs')}`;
    const r = await run(process.execPath, ['--input-type=module', '-e', `import { PROFILE_CONSUMERS } from '${hook}'; process.stdout.write(JSON.stringify(PROFILE_CONSUMERS));`]);
    expect(r.code).toBe(0);
    expect([...JSON.parse(r.stdout)].sort()).toEqual([...EVENT_CATALOGUE['profile.updated'].consumers].sort());
  });

  it('delivers every seeded member to profile-service once, leaves the profiles as seeded, and ends caught up', async () => {
    const auth = { url: dbUrl('auth-service') };
    const profile = { url: dbUrl('profile-service') };
    const matching = { url: dbUrl('matching-service') };
    const chat = { url: dbUrl('chat-service') };
    const profilesBefore = await query(profile.url, 'SELECT * FROM profiles ORDER BY user_id');
    expect(profilesBefore).toHaveLength(MEMBERS);
    const options = {
      databases: Object.fromEntries(SERVICES.map((svc) => [svc, dbUrl(svc)])),
      redisUrl: ns.url,
      keyPrefix: ns.prefix,
      waitSeconds: 60,
    };

    const first = await backfill(options);
    expect(first.result).toEqual({ republished: true, caughtUp: true });
    expect(first.stdout).toContain(`auth-service: republished ${MEMBERS} user.registered and ${MEMBERS} user.verified event(s)`);
    expect(first.stdout).toContain(`profile-service: republished ${MEMBERS} profile.updated and ${MEMBERS} preferences.updated event(s)`);
    expect(first.stdout).toContain('Every consumer is caught up.');

    // Each seeded account reached profile-service as registration and verification, once: the
    // versions a member who signed up through the API would have.
    const applied = await query<{ aggregate_id: string; version: string }>(
      profile.url,
      "SELECT aggregate_id, version FROM applied_version WHERE aggregate_type = 'user' ORDER BY aggregate_id",
    );
    const users = await query<{ id: string }>(auth.url, 'SELECT id FROM users ORDER BY id');
    expect(applied.map((a) => a.aggregate_id)).toEqual(users.map((u) => u.id));
    expect(new Set(applied.map((a) => a.version))).toEqual(new Set(['2']));
    expect(await query(profile.url, 'SELECT count(*)::int AS n FROM processed_event')).toEqual([{ n: 2 * MEMBERS }]);
    // matching-service's candidates came from those events: one row per seeded member.
    const candidates = await query<{ user_id: string }>(matching.url, 'SELECT user_id FROM candidate ORDER BY user_id');
    expect(candidates.map((c) => c.user_id)).toEqual(users.map((u) => u.id));
    // chat-service's members too (the name a conversation shows), from profile.updated.
    const named = await query<{ user_id: string; name: string | null }>(chat.url, 'SELECT user_id, name FROM chat_member ORDER BY user_id');
    const names = await query<{ user_id: string; name: string }>(profile.url, 'SELECT user_id, name FROM profiles ORDER BY user_id');
    expect(named).toEqual(names);
    // Every consumer of profile.updated (safety-service's members too) applied each seeded profile once.
    for (const svc of PROFILE_CONSUMERS) {
      const profiles = await query<{ aggregate_id: string; version: string }>(
        dbUrl(svc),
        "SELECT aggregate_id, version FROM applied_version WHERE aggregate_type = 'profile' ORDER BY aggregate_id",
      );
      expect({ svc, profiles }).toEqual({ svc, profiles: users.map((u) => ({ aggregate_id: u.id, version: '1' })) });
    }
    // Nothing the seeder wrote changed: the events brought what the tables already held.
    expect(await query(profile.url, 'SELECT * FROM profiles ORDER BY user_id')).toEqual(profilesBefore);
    // profile-service's own events are stored for the consumers still to come (replay fills them).
    expect(
      await query(profile.url, "SELECT name, count(*)::int AS n FROM outbox WHERE kind = 'event' GROUP BY name ORDER BY name"),
    ).toEqual([
      { name: 'preferences.updated', n: MEMBERS },
      { name: 'profile.updated', n: MEMBERS },
    ]);

    // A later start finds nothing to backfill and republishes nothing.
    expect((await backfill(options)).result).toEqual({ republished: false, caughtUp: true });
    expect(await query(auth.url, "SELECT count(*)::int AS n FROM outbox WHERE kind = 'event'")).toEqual([{ n: 2 * MEMBERS }]);
  });

  it('fills a consumer of profile.updated deployed after the members: profile-service alone republishes', async () => {
    // The last consumer in the catalogue (safety-service today) as if it had just been deployed:
    // it never applied a profile.
    const late = PROFILE_CONSUMERS[PROFILE_CONSUMERS.length - 1];
    await query(dbUrl(late), "DELETE FROM applied_version WHERE aggregate_type = 'profile'");
    const options = {
      databases: Object.fromEntries(SERVICES.map((svc) => [svc, dbUrl(svc)])),
      redisUrl: ns.url,
      keyPrefix: ns.prefix,
      waitSeconds: 60,
    };
    const run1 = await backfill(options);
    expect(run1.result).toEqual({ republished: true, caughtUp: true, profilesOnly: true });
    expect(run1.stdout).toContain(`${late} holds 0 of ${MEMBERS}`);
    expect(run1.stdout).toContain(`profile-service: republished ${MEMBERS} profile.updated and ${MEMBERS} preferences.updated event(s)`);
    expect(run1.stdout).not.toContain('auth-service: republished');
    const applied = await query<{ n: number }>(dbUrl(late), "SELECT count(DISTINCT aggregate_id)::int AS n FROM applied_version WHERE aggregate_type = 'profile'");
    expect(applied).toEqual([{ n: MEMBERS }]);
    // auth-service published nothing more; the next start has nothing to do.
    expect(await query(dbUrl('auth-service'), "SELECT count(*)::int AS n FROM outbox WHERE kind = 'event'")).toEqual([{ n: 2 * MEMBERS }]);
    expect((await backfill(options)).result).toEqual({ republished: false, caughtUp: true });
  });
});
