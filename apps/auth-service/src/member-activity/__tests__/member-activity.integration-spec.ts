import Redis from 'ioredis';
import {
  DAY,
  INTERNAL_ADMIN_PATHS,
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  type AdminAccountPart,
  type MemberActivePayload,
} from '@mate/contracts';
import { BaseServiceEnv, memberActivityStreamKey, SessionStore } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { DataSource } from 'typeorm';
import {
  PASSWORD,
  startAuthTestBed,
  type AuthTestBed,
  type RegisteredMember,
} from '../../__tests__/auth-test-bed';
import { MEMBER_ACTIVITY_GROUP, MemberActivityConsumer } from '../member-activity.consumer';
import { MEMBER_ACTIVITY_RETENTION_DAYS } from '../member-activity.repository';

jest.setTimeout(60_000);

const CLAIM_IDLE_MS = 300;

/**
 * member.active (issue 13): the session store notes a sign-in and each session's first request of
 * a new UTC day on the activity stream; auth-service's consumer turns the notes into one fact per
 * member and day, and the account's last activity. Real PostgreSQL and Redis.
 */
describe('member activity: once-a-day member.active and the last activity (real PostgreSQL and Redis)', () => {
  let bed: AuthTestBed;
  let ds: DataSource;
  let redis: Redis;
  let store: SessionStore;
  let consumer: MemberActivityConsumer;
  let streamKey: string;
  let seq = 0;
  const email = (label: string) => `${label}-${++seq}@activity.test`;
  const internal = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };

  beforeAll(async () => {
    bed = await startAuthTestBed('auth_activity', {
      MEMBER_ACTIVITY_BLOCK_MS: '50',
      MEMBER_ACTIVITY_CLAIM_IDLE_MS: String(CLAIM_IDLE_MS),
    });
    ds = bed.svc.dataSource;
    redis = new Redis(bed.svc.env.REDIS_URL as string);
    store = bed.svc.app.get(SessionStore);
    consumer = bed.svc.app.get(MemberActivityConsumer);
    streamKey = memberActivityStreamKey(bed.svc.env.KEY_PREFIX as string);
  });

  afterAll(async () => {
    await redis?.quit();
    await bed?.close();
  });

  const facts = async (userId: string): Promise<MemberActivePayload[]> =>
    (
      await ds.query<{ payload: MemberActivePayload }[]>(
        `SELECT body->'payload' AS payload FROM outbox WHERE name = 'member.active' AND body->'payload'->>'userId' = $1 ORDER BY body->'payload'->>'day'`,
        [userId],
      )
    ).map((r) => r.payload);
  const days = async (userId: string): Promise<string[]> =>
    (
      await ds.query<{ day: string }[]>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM member_activity_day WHERE user_id = $1 ORDER BY day`,
        [userId],
      )
    ).map((r) => r.day);
  /** Every note on the stream handled (acknowledged and deleted) by the group. */
  const settled = () =>
    waitFor(async () => ((await redis.xlen(streamKey)) === 0 ? true : undefined), {
      what: 'the activity stream drained',
    });
  const sessionIdOf = async (userId: string): Promise<string[]> =>
    (
      await ds.query<{ id: string }[]>(
        'SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at',
        [userId],
      )
    ).map((r) => r.id);
  const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const account = (userId: string) =>
    bed.call<AdminAccountPart>('GET', INTERNAL_ADMIN_PATHS.account(userId), { headers: internal });

  it('a sign-in is the day’s one fact; more requests and a second session that day add none', async () => {
    const address = email('today');
    const member: RegisteredMember = await bed.register(address);
    const id = member.user.id;
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), {
      what: 'the sign-up day recorded',
    });
    for (let i = 0; i < 3; i++)
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(200);
    expect(
      (await bed.call('POST', '/api/auth/login', { body: { email: address, password: PASSWORD } })).status,
    ).toBe(200);
    await settled();
    const [fact] = await facts(id);
    expect(await facts(id)).toEqual([
      { userId: id, day: utcDay(Date.parse(fact.at)), at: expect.any(String) },
    ]);
    expect(await days(id)).toEqual([fact.day]);
    const [row] = await ds.query('SELECT last_active_at FROM users WHERE id = $1', [id]);
    expect(row.last_active_at.toISOString()).toBe(fact.at);
  });

  it('the first request of a new UTC day writes that day’s fact once, and lastActive shows it', async () => {
    const member = await bed.register(email('tomorrow'));
    const id = member.user.id;
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), {
      what: 'the sign-up day recorded',
    });
    const [sessionId] = await sessionIdOf(id);
    const tomorrow = (Math.floor(Date.now() / DAY) + 1) * DAY + 5 * 60_000;
    expect(await store.touch(sessionId, id, tomorrow)).not.toBeNull();
    expect(await store.touch(sessionId, id, tomorrow + 60_000)).not.toBeNull();
    expect(await store.touch(sessionId, id, tomorrow + 3_600_000)).not.toBeNull();
    await waitFor(async () => ((await facts(id)).length === 2 ? true : undefined), {
      what: 'the next day recorded',
    });
    await settled();
    const all = await facts(id);
    expect(all).toHaveLength(2);
    expect(all[1]).toEqual({ userId: id, day: utcDay(tomorrow), at: new Date(tomorrow).toISOString() });

    // The account answer: the later of the recorded day and the live session's last request.
    const answer = await account(id);
    expect(answer.status).toBe(200);
    expect(answer.body.lastActive).toBe(new Date(tomorrow + 3_600_000).toISOString());
    const [row] = await ds.query('SELECT last_active_at FROM users WHERE id = $1', [id]);
    expect(row.last_active_at.toISOString()).toBe(new Date(tomorrow).toISOString());

    // The member's data export lists them too.
    const exported = await bed.call<{ lastActiveAt: string; activeDays: string[] }>(
      'GET',
      memberExportPath(id),
      { headers: internal },
    );
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({
      lastActiveAt: new Date(tomorrow).toISOString(),
      activeDays: all.map((f) => f.day),
    });
  });

  it(`keeps ${MEMBER_ACTIVITY_RETENTION_DAYS} days: a member's older days go when they are next active`, async () => {
    const member = await bed.register(email('old-days'));
    const id = member.user.id;
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), { what: 'the sign-up day recorded' });
    const today = Math.floor(Date.now() / DAY) * DAY;
    const old = utcDay(today - (MEMBER_ACTIVITY_RETENTION_DAYS + 5) * DAY);
    const kept = utcDay(today - (MEMBER_ACTIVITY_RETENTION_DAYS - 5) * DAY);
    await ds.query(`INSERT INTO member_activity_day (user_id, day, at) VALUES ($1, $2, $2::date), ($1, $3, $3::date)`, [id, old, kept]);
    const [sessionId] = await sessionIdOf(id);
    const tomorrow = today + DAY + 60_000;
    expect(await store.touch(sessionId, id, tomorrow)).not.toBeNull();
    await waitFor(async () => ((await facts(id)).length === 2 ? true : undefined), { what: 'the next day recorded' });
    expect(await days(id)).toEqual([kept, utcDay(today), utcDay(tomorrow)].filter((d, i, all) => all.indexOf(d) === i));
  });

  it('the real request path: a session last used yesterday notes today on its next request', async () => {
    const member = await bed.register(email('http'));
    const id = member.user.id;
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), {
      what: 'the sign-up day recorded',
    });
    // As if today were not recorded yet and the session was last used yesterday.
    await ds.query('DELETE FROM member_activity_day WHERE user_id = $1', [id]);
    await ds.query(`DELETE FROM outbox WHERE name = 'member.active' AND body->'payload'->>'userId' = $1`, [
      id,
    ]);
    const [sessionId] = await sessionIdOf(id);
    await redis.hset(
      `${bed.svc.env.KEY_PREFIX}:session:${sessionId}`,
      'lastActivity',
      String(Date.now() - DAY),
    );
    expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(200);
    expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(200);
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), {
      what: 'today recorded again',
    });
    await settled();
    expect(await facts(id)).toHaveLength(1);
  });

  it('loses nothing when a consumer dies mid-way: its unacknowledged notes are claimed', async () => {
    const member = await bed.register(email('claimed'));
    const id = member.user.id;
    await waitFor(async () => ((await facts(id)).length === 1 ? true : undefined), {
      what: 'the sign-up day recorded',
    });
    await settled();
    const [sessionId] = await sessionIdOf(id);
    await consumer.stop();
    try {
      const base = (Math.floor(Date.now() / DAY) + 10) * DAY;
      let at = base;
      for (let d = 0; d < 3; d++) {
        at = base + d * DAY + 1_000;
        expect(await store.touch(sessionId, id, at)).not.toBeNull();
      }
      // A consumer that took the three notes and died before acknowledging them.
      const taken = (await redis.xreadgroup(
        'GROUP',
        MEMBER_ACTIVITY_GROUP,
        'dead-consumer',
        'COUNT',
        10,
        'STREAMS',
        streamKey,
        '>',
      )) as [string, unknown[]][];
      expect(taken[0][1]).toHaveLength(3);
      // One of them it had even recorded (committed, not acknowledged): claimed again, still one fact.
      expect(await consumer.record(['userId', id, 'at', String(base + 1_000)])).toBe('recorded');
    } finally {
      consumer.start();
    }
    await waitFor(async () => ((await facts(id)).length === 4 ? true : undefined), {
      what: 'the dead consumer’s notes recorded',
      timeoutMs: 10_000,
    });
    await settled();
    expect((await facts(id)).map((f) => f.day)).toEqual(await days(id));
    expect(await facts(id)).toHaveLength(4);
    const pending = (await redis.xpending(streamKey, MEMBER_ACTIVITY_GROUP)) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
  });

  it('skips notes of accounts that do not exist, and unreadable notes; the erasure removes the days', async () => {
    expect(
      await consumer.record(['userId', '00000000-0000-4000-8000-000000000000', 'at', String(Date.now())]),
    ).toBe('no-account');
    expect(await consumer.record(['userId', 'nope', 'at', String(Date.now())])).toBe('unreadable');
    expect(await consumer.record(['at', 'x'])).toBe('unreadable');
    await redis.xadd(streamKey, '*', 'userId', 'garbage');
    await settled();

    const address = email('erased');
    const member = await bed.registerVerified(address);
    const id = member.user.id;
    await waitFor(async () => ((await days(id)).length === 1 ? true : undefined), {
      what: 'the day recorded',
    });
    const res = await bed.call('POST', '/api/gdpr/delete-account', {
      token: member.token,
      body: { confirmEmail: address },
    });
    expect(res.status).toBeLessThan(300);
    expect(await days(id)).toEqual([]);
    expect(await facts(id)).toEqual([]);
    // A note still on its way for the deleted account writes nothing.
    expect(await consumer.record(['userId', id, 'at', String(Date.now())])).toBe('no-account');
    expect(await days(id)).toEqual([]);
  });
});
