import { existsSync } from 'node:fs';
import path from 'node:path';
import { startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { query, ROOT, run } from './helpers';

/*
 * `npm start`'s step after seeding (tools/seed/hook.mjs backfillConsumers) against the built
 * auth-service, profile-service, matching-service and chat-service running as processes: the
 * seeded members reach profile-service as events, exactly once each, and matching-service's
 * candidate table and chat-service's members (names) from profile-service's events, and
 * `npm run events -- status` ends caught up.
 */

const SERVICES = ['auth-service', 'profile-service', 'matching-service', 'chat-service'] as const;
/** The services whose `republish` the backfill runs; matching-service and chat-service consume what they publish. */
const PRODUCERS = ['auth-service', 'profile-service'] as const;
const MEMBERS = 15;
const JWT_SECRET = 'backfill-test-jwt-secret-0123456789';

/** The built services are there, the producers with their republish command. */
const distReady = () =>
  PRODUCERS.every((svc) => existsSync(path.join(ROOT, 'dist/apps', svc, 'apps', svc, 'src/republish/republish.module.js'))) &&
  existsSync(path.join(ROOT, 'dist/apps/matching-service/main.js')) &&
  existsSync(path.join(ROOT, 'dist/apps/chat-service/main.js'));

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
  let auth: TestDatabase;
  let profile: TestDatabase;
  let matching: TestDatabase;
  let chat: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  const processes: ServiceProcess[] = [];

  async function start(svc: (typeof SERVICES)[number], databaseUrl: string) {
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      JWT_SECRET,
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    processes.push(await startServiceProcess(`dist/apps/${svc}/main.js`, await freePort(), env, { health: '/health/ready' }));
  }

  beforeAll(async () => {
    if (!distReady()) {
      const nx = path.join(ROOT, 'node_modules/.bin/nx');
      const r = await run(nx, ['run-many', '-t', 'build', '-p', ...SERVICES], { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' });
      if (r.code !== 0) throw new Error(`building ${SERVICES.join(', ')} failed:\n${r.stdout}\n${r.stderr}`);
    }
    [auth, profile, matching, chat, ns] = await Promise.all([
      createTestDatabase('backfill_auth'),
      createTestDatabase('backfill_profile'),
      createTestDatabase('backfill_matching'),
      createTestDatabase('backfill_chat'),
      createTestRedisNamespace('backfill'),
    ]);
    const databases = { 'auth-service': auth, 'profile-service': profile, 'matching-service': matching, 'chat-service': chat };
    for (const [svc, db] of Object.entries(databases)) {
      const r = await run(process.execPath, [path.join(ROOT, 'dist/apps', svc, 'main.js'), 'migrate'], {
        DATABASE_URL: db.url,
        LOG_LEVEL: 'warn',
      });
      if (r.code !== 0) throw new Error(`${svc} migrate failed:\n${r.stdout}\n${r.stderr}`);
    }
    const seeded = await run(process.execPath, [
      path.join(ROOT, 'tools/seed/seed.mjs'),
      '--members',
      String(MEMBERS),
      '--no-photos',
      '--auth-db',
      auth.url,
      '--profile-db',
      profile.url,
    ]);
    if (seeded.code !== 0) throw new Error(`seeding failed:\n${seeded.stderr}`);
    await start('auth-service', auth.url);
    await start('profile-service', profile.url);
    await start('matching-service', matching.url);
    await start('chat-service', chat.url);
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await ns?.cleanup();
    await auth?.drop();
    await profile?.drop();
    await matching?.drop();
    await chat?.drop();
  });

  it('delivers every seeded member to profile-service once, leaves the profiles as seeded, and ends caught up', async () => {
    const profilesBefore = await query(profile.url, 'SELECT * FROM profiles ORDER BY user_id');
    expect(profilesBefore).toHaveLength(MEMBERS);
    const options = {
      databases: {
        'auth-service': auth.url,
        'profile-service': profile.url,
        'matching-service': matching.url,
        'chat-service': chat.url,
      },
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
});
