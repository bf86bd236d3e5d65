import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import {
  eventQueueName,
  ROLE_ADMIN,
  SERVICES,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type ReportReason,
} from '@mate/contracts';
import { CLOCK, createQueueConnection, ManualClock } from '@mate/server-kit';
import { eventEnvelope, startServiceTestBed, waitFor, type ServiceTestBed } from '@mate/server-kit/testing';
import { columnsHolding } from '@mate/testing';
import { AppModule } from '../../app.module';
import { ANALYTICS_SQL } from '../analytics.repository';

/**
 * The analytics calls on a hand-built event history whose answers are worked out by hand below
 * (README "Analytics" defines each metric). Events go through admin-service's real queue and
 * consumer, as the relay delivers them. "Today" is 2026-03-31 (UTC): `day(-n)` is n days before.
 */
const TODAY = '2026-03-31';
const DAY_MS = 24 * 3600 * 1000;
const day = (offset: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
const at = (offset: number, hour = 12) => new Date(Date.parse(`${TODAY}T00:00:00Z`) + offset * DAY_MS + hour * 3600 * 1000).toISOString();

const ROUTES = ['overview', 'user-growth', 'engagement', 'matches', 'retention', 'safety', 'report-trends'] as const;
const PERIOD_ROUTES = ['user-growth', 'engagement', 'matches', 'report-trends'] as const;

describe('admin-service analytics', () => {
  let bed: ServiceTestBed;
  let queue: Queue<EventEnvelope>;
  let connection: ReturnType<typeof createQueueConnection>;
  let adminToken: string;
  let memberToken: string;
  let jobsAdded = 0;

  beforeAll(async () => {
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), {
      label: 'admin_analytics',
      overrides: [{ provide: CLOCK, useValue: new ManualClock(new Date(`${TODAY}T12:00:00Z`)) }],
    });
    connection = createQueueConnection(bed.env.REDIS_URL);
    queue = new Queue<EventEnvelope>(eventQueueName(SERVICES.admin), { connection, prefix: bed.env.KEY_PREFIX });
    adminToken = (await bed.signIn(randomUUID(), ROLE_ADMIN)).token;
    memberToken = (await bed.signIn()).token;
  });

  afterAll(async () => {
    await queue?.close();
    await connection?.quit();
    await bed?.close();
  });

  /** Publishes envelopes into admin-service's queue as the relay does (job id = event id) and waits until every job ran. */
  async function publish(envelopes: EventEnvelope[], jobIds = envelopes.map((e) => e.id)): Promise<void> {
    await queue.addBulk(envelopes.map((envelope, i) => ({ name: envelope.name, data: envelope, opts: { jobId: jobIds[i] } })));
    jobsAdded += envelopes.length;
    const counts = await waitFor(
      async () => {
        const c = await queue.getJobCounts('completed', 'failed');
        return c.completed + c.failed >= jobsAdded ? c : null;
      },
      { what: 'every event consumed' },
    );
    expect(counts.failed).toBe(0);
  }

  function event<N extends EventName>(name: N, payload: EventPayloads[N], version?: number): EventEnvelope<N> {
    const envelope = eventEnvelope(SERVICES.auth, name, payload);
    if (version !== undefined) {
      const userId = (payload as { userId: string }).userId;
      Object.assign(envelope, { aggregateType: 'user', aggregateId: userId, aggregateVersion: version });
    }
    return envelope;
  }

  /** GET as the admin, or as `token`'s holder (null: anonymous). */
  const get = <T = Record<string, unknown>>(p: string, token: string | null = adminToken) =>
    bed.call<T>('GET', p, { token: token ?? undefined });

  it('answers zeros (never NaN) and zero days on an empty store', async () => {
    expect((await get('/api/admin/analytics/overview')).body).toEqual({
      totalUsers: 0,
      newUsers7d: 0,
      activeUsers30d: 0,
      totalMatches: 0,
      totalMessages: 0,
      pendingReports: 0,
      onboardingCompletionRate: 0,
      profileCompletionRate: 0,
    });
    expect((await get('/api/admin/analytics/engagement')).body).toEqual({
      dau: 0,
      wau: 0,
      mau: 0,
      avgMessagesPerMatch: 0,
      messageResponseRate: 0,
      swipeRate: 0,
    });
    expect((await get('/api/admin/analytics/matches')).body).toEqual({
      matchSuccessRate: 0,
      totalLikes: 0,
      totalMatches: 0,
      likesInPeriod: 0,
      matchesInPeriod: 0,
      avgMatchesPerUser: 0,
      newMatches7d: 0,
      newMatches30d: 0,
    });
    expect((await get('/api/admin/analytics/retention')).body).toEqual({ d1Retention: 0, d7Retention: 0, d30Retention: 0, churnRate: 0 });
    expect((await get('/api/admin/analytics/safety')).body).toEqual({
      pendingReports: 0,
      resolvedReports: 0,
      totalReports: 0,
      avgResolutionTime: 0,
      totalBlocks: 0,
      totalSuspensions: 0,
    });
    expect((await get('/api/admin/analytics/report-trends')).body).toEqual([]);
    const growth = await get<{ date: string; totalUsers: number; newUsers: number }[]>('/api/admin/analytics/user-growth');
    expect(growth.body).toHaveLength(30);
    expect(growth.body[0]).toEqual({ date: day(-29), totalUsers: 0, newUsers: 0 });
    expect(growth.body[29]).toEqual({ date: TODAY, totalUsers: 0, newUsers: 0 });
  });

  describe('authorization and validation', () => {
    it.each(ROUTES.flatMap((route) => ['/api/admin/analytics', '/admin/analytics'].map((prefix) => `${prefix}/${route}`)))(
      '%s: 401 anonymous, 403 member, 200 admin',
      async (p) => {
        expect((await get(p, null)).status).toBe(401);
        const member = await get(p, memberToken);
        expect(member.status).toBe(403);
        expect(member.body).toMatchObject({ error: 'Admin access required' });
        expect((await get(p)).status).toBe(200);
      },
    );

    it.each(PERIOD_ROUTES.flatMap((route) => ['0', '366', '-1', 'abc', '7.5', '', '1e2'].map((days) => [route, days] as const)))(
      '%s?days=%s is refused (400)',
      async (route, days) => {
        const res = await get(`/api/admin/analytics/${route}?days=${encodeURIComponent(days)}`);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 'days must be a whole number from 1 to 365' });
      },
    );

    it.each(ROUTES.map((route) => [route] as const))('%s refuses unknown parameters (400)', async (route) => {
      const res = await get(`/admin/analytics/${route}?since=2026-01-01`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Unknown field: since' });
    });

    it('accepts the periods 7, 30 and 90 and the maximum 365', async () => {
      for (const days of [1, 7, 30, 90, 365]) {
        const res = await get<unknown[]>(`/api/admin/analytics/user-growth?days=${days}`);
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(days);
      }
    });
  });

  describe('on a hand-built history', () => {
    // Members by signup day: A -40, B -40, X -20, C -10, D -5 (again -3: a republish), G -2 (its
    // verification only), E -1, F today. X deletes their account on day -4.
    const [A, B, C, D, E, F, G, X] = Array.from({ length: 8 }, () => randomUUID());
    const M0 = randomUUID();
    const M1 = randomUUID();
    const M2 = randomUUID();
    const R = Array.from({ length: 4 }, () => randomUUID());
    let history: EventEnvelope[];
    let redelivered: EventEnvelope;

    const registered = (userId: string, offset: number) =>
      event('user.registered', { userId, email: `${userId}@x.test`, name: 'N', age: 30, registeredAt: at(offset, 9) });
    const active = (userId: string, offset: number) => event('member.active', { userId, day: day(offset), at: at(offset, 10) });
    const like = (liker: string, liked: string, offset: number, matched = false) =>
      event('like.created', { likerId: liker, likedId: liked, matched, createdAt: at(offset) });
    const pass = (passer: string, passed: string, offset: number) =>
      event('pass.created', { passerId: passer, passedId: passed, createdAt: at(offset) });
    const match = (matchId: string, a: string, b: string, offset: number) =>
      event('match.created', { matchId, userIds: ids(a, b), createdAt: at(offset, 13) });
    const message = (conversationId: string, from: string, to: string, seq: number, offset: number) =>
      event('message.sent', {
        messageId: randomUUID(),
        conversationId,
        senderId: from,
        recipientId: to,
        seq,
        length: 12,
        first: seq === 1,
        sentAt: at(offset, 14 + seq / 10),
      });
    const report = (reportId: string, reporter: string, reported: string, reason: ReportReason, offset: number, hour: number) =>
      event('report.created', { reportId, reporterId: reporter, reportedId: reported, reason, hasDetails: false, createdAt: at(offset, hour) });
    const resolved = (
      reportId: string,
      reporter: string,
      reported: string,
      reason: ReportReason,
      status: 'reviewed' | 'dismissed',
      reportedAt: string,
      resolvedAt: string,
    ) => event('report.resolved', { reportId, reporterId: reporter, reportedId: reported, reason, status, reportedAt, resolvedAt });
    const pairId = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
    const ids = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

    beforeAll(async () => {
      history = [
        registered(A, -40),
        registered(B, -40),
        registered(X, -20),
        registered(C, -10),
        registered(D, -5),
        event('user.verified', { userId: D, verifiedAt: at(-5, 10), name: 'N', age: 30 }),
        registered(D, -3),
        event('user.verified', { userId: G, verifiedAt: at(-2, 9), name: 'N', age: 30 }),
        registered(E, -1),
        registered(F, 0),
        // Onboarding: A, C, D (twice), X completed; B skipped.
        event('onboarding.completed', { userId: A, completedAt: at(-40, 11), skipped: false }),
        event('onboarding.completed', { userId: B, completedAt: at(-40, 11), skipped: true }),
        event('onboarding.completed', { userId: C, completedAt: at(-10, 11), skipped: false }),
        event('onboarding.completed', { userId: D, completedAt: at(-5, 11), skipped: false }),
        event('onboarding.completed', { userId: D, completedAt: at(-4, 11), skipped: false }),
        event('onboarding.completed', { userId: X, completedAt: at(-20, 11), skipped: false }),
        // Photos: A (two), C, X.
        ...[A, A, C, X].map((userId) => event('photo.uploaded', { photoId: randomUUID(), userId, url: '/p.webp', uploadedAt: at(-3) })),
        event('photo.deleted', { photoId: randomUUID(), userId: C, deletedAt: at(-2) }),
        event('photo.moderated', { photoId: randomUUID(), userId: A, outcome: 'scored', riskScore: 0.02, hidden: false, reason: null, at: at(-3) }),
        // Activity.
        ...[-39, -33, -10, 0].map((o) => active(A, o)),
        ...[-40, -35].map((o) => active(B, o)),
        ...[-9, -3, -1].map((o) => active(C, o)),
        ...[-4, 0].map((o) => active(D, o)),
        active(G, -1),
        ...[-19, -13].map((o) => active(X, o)),
        active(E, 0),
        active(F, 0),
        // Swipes and matches: M0 (A, B) day -34, M1 (A, C) day -8, M2 (D, E) today.
        like(A, B, -35),
        like(B, A, -34, true),
        match(M0, A, B, -34),
        pass(B, A, -35),
        like(A, C, -9),
        like(C, A, -8, true),
        match(M1, A, C, -8),
        like(A, D, -3),
        like(D, E, -1),
        like(E, D, 0, true),
        match(M2, D, E, 0),
        like(F, A, 0),
        pass(G, A, -1),
        pass(G, C, -1),
        // Messages: M0 answered, M1 answered, M2 two messages from D, no answer.
        message(M0, A, B, 1, -34),
        message(M0, B, A, 2, -33),
        message(M1, A, C, 1, -8),
        message(M1, C, A, 2, -7),
        message(M1, A, C, 3, -7),
        message(M2, D, E, 1, 0),
        message(M2, D, E, 2, 0),
        event('call.ended', { callId: randomUUID(), callerId: A, calleeId: C, status: 'completed', durationSeconds: 300, endedAt: at(-7) }),
        // Reports: R0 resolved after 30 h, R1 pending, R2 dismissed after 2 h, R3 pending (about X).
        report(R[0], C, B, 'harassment', -3, 10),
        resolved(R[0], C, B, 'harassment', 'reviewed', at(-3, 10), at(-2, 16)),
        report(R[1], D, B, 'spam', -3, 12),
        report(R[2], A, G, 'fake_profile', 0, 8),
        resolved(R[2], A, G, 'fake_profile', 'dismissed', at(0, 8), at(0, 10)),
        report(R[3], A, X, 'harassment', -20, 12),
        // Blocks.
        event('user.blocked', { pairId: pairId(C, B), userIds: ids(C, B), blockedBy: [C], blockerId: C, blockedId: B, endedMatchId: null, blockedAt: at(-2) }),
        event('user.blocked', { pairId: pairId(D, B), userIds: ids(D, B), blockedBy: [D], blockerId: D, blockedId: B, endedMatchId: null, blockedAt: at(-1) }),
      ] as EventEnvelope[];
      redelivered = active(A, 0);
      // A redelivery of the same event (another job, the same event id) is stored once.
      await publish([...history, redelivered, redelivered], [...history.map((e) => e.id), redelivered.id, `${redelivered.id}-again`]);
      // Suspensions, in version order per member: B suspended (3), unsuspended (4), suspended (5);
      // G suspended (2); E suspended (1) and unsuspended (2). Then an older G version arrives late.
      const suspension = (userId: string, suspended: boolean, version: number, offset: number) =>
        suspended
          ? event('user.suspended', { userId, suspended: true, reason: 'Spam', suspendedAt: at(offset) }, version)
          : event('user.unsuspended', { userId, suspended: false, unsuspendedAt: at(offset) }, version);
      await publish([
        suspension(B, true, 3, -2),
        suspension(B, false, 4, -1),
        suspension(B, true, 5, 0),
        suspension(G, true, 2, -1),
        suspension(E, true, 1, -1),
        suspension(E, false, 2, 0),
      ]);
      await publish([suspension(G, false, 1, 0)]);
      // X deletes their account on day -4 (after everything about them arrived).
      await publish([event('user.deleted', { userId: X, deletedAt: at(-4) })]);
    });

    it('stores each event once, an unreadable one not at all', async () => {
      const [{ n }] = await bed.dataSource.query('SELECT count(*)::int AS n FROM analytics_event WHERE id = $1', [redelivered.id]);
      expect(n).toBe(1);
      const before = await bed.dataSource.query('SELECT count(*)::int AS n FROM analytics_event');
      await publish([event('like.created', { likerId: 'not-a-member', likedId: A, matched: false, createdAt: at(0) })]);
      expect(await bed.dataSource.query('SELECT count(*)::int AS n FROM analytics_event')).toEqual(before);
    });

    it('overview', async () => {
      const res = await get('/api/admin/analytics/overview');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        totalUsers: 7, // 8 members, X deleted
        newUsers7d: 4, // D, G, E, F
        activeUsers30d: 7, // A, C, D, E, F, G, X
        totalMatches: 3,
        totalMessages: 7,
        pendingReports: 2,
        onboardingCompletionRate: 4 / 8, // A, C, D, X (B skipped)
        profileCompletionRate: 3 / 8, // A, C, X
      });
    });

    it('user growth: one row per day, zero days included, totals cumulative, the deletion counted', async () => {
      const res = await get('/admin/analytics/user-growth?days=7');
      expect(res.body).toEqual([
        { date: day(-6), totalUsers: 4, newUsers: 0 },
        { date: day(-5), totalUsers: 5, newUsers: 1 },
        { date: day(-4), totalUsers: 4, newUsers: 0 },
        { date: day(-3), totalUsers: 4, newUsers: 0 },
        { date: day(-2), totalUsers: 5, newUsers: 1 },
        { date: day(-1), totalUsers: 6, newUsers: 1 },
        { date: day(0), totalUsers: 7, newUsers: 1 },
      ]);
      const month = await get<{ date: string; totalUsers: number; newUsers: number }[]>('/api/admin/analytics/user-growth');
      expect(month.body).toHaveLength(30);
      expect(month.body[0]).toEqual({ date: day(-29), totalUsers: 2, newUsers: 0 });
      expect(month.body.find((r) => r.date === day(-20))).toEqual({ date: day(-20), totalUsers: 3, newUsers: 1 });
    });

    it('engagement over 7, 30 and 90 days', async () => {
      expect((await get('/api/admin/analytics/engagement?days=7')).body).toEqual({
        dau: 4, // A, D, E, F
        wau: 6, // A, C, D, E, F, G
        mau: 7, // and X
        avgMessagesPerMatch: 2, // 2 messages, 1 match (M2)
        messageResponseRate: 0, // M2's first message has no answer
        swipeRate: 6 / 6 / 7, // 4 likes + 2 passes, 6 active members, 7 days
      });
      const month = (await get<Record<string, number>>('/api/admin/analytics/engagement')).body;
      expect(month).toMatchObject({ dau: 4, wau: 6, mau: 7 });
      expect(month['avgMessagesPerMatch']).toBeCloseTo(5 / 2);
      expect(month['messageResponseRate']).toBeCloseTo(1 / 2); // M1 answered, M2 not
      expect(month['swipeRate']).toBeCloseTo(8 / 7 / 30);
      const quarter = (await get<Record<string, number>>('/api/admin/analytics/engagement?days=90')).body;
      expect(quarter['avgMessagesPerMatch']).toBeCloseTo(7 / 3);
      expect(quarter['messageResponseRate']).toBeCloseTo(2 / 3);
      expect(quarter['swipeRate']).toBeCloseTo(10 / 8 / 90); // 7 likes + 3 passes, A B C D E F G X active
    });

    it('matches over 7, 30 and 90 days: totals ever, the period, and the fixed 7- and 30-day windows', async () => {
      // Matches made 34 days ago (M0), 8 days ago (M1) and today (M2); likes 35, 34, 9, 8, 3, 1 and
      // 0 (twice) days ago. Every total is the same whatever the period.
      const totals = { totalLikes: 8, totalMatches: 3, newMatches7d: 1, newMatches30d: 2 };
      const week = (await get<Record<string, number>>('/api/admin/analytics/matches?days=7')).body;
      expect(week).toEqual({ ...totals, likesInPeriod: 4, matchesInPeriod: 1, matchSuccessRate: 1 / 4, avgMatchesPerUser: expect.any(Number) });
      expect(week['avgMatchesPerUser']).toBeCloseTo(2 / 6); // 1 match, 6 members active in the week
      const month = (await get<Record<string, number>>('/admin/analytics/matches?days=30')).body;
      expect(month).toEqual({
        ...totals,
        likesInPeriod: 6,
        matchesInPeriod: 2,
        matchSuccessRate: expect.any(Number),
        avgMatchesPerUser: expect.any(Number),
      });
      expect(month['matchSuccessRate']).toBeCloseTo(2 / 6);
      expect(month['avgMatchesPerUser']).toBeCloseTo(4 / 7);
      const quarter = (await get<Record<string, number>>('/api/admin/analytics/matches?days=90')).body;
      expect(quarter).toEqual({
        ...totals,
        likesInPeriod: 8,
        matchesInPeriod: 3,
        matchSuccessRate: 3 / 8,
        avgMatchesPerUser: expect.any(Number),
      });
      expect(quarter['avgMatchesPerUser']).toBeCloseTo(6 / 8); // A B C D E F G X active in 90 days
      // The overview's Total Matches is the same count.
      expect((await get('/api/admin/analytics/overview')).body).toMatchObject({ totalMatches: 3 });
    });

    it('retention by signup cohorts and churn', async () => {
      const res = await get<Record<string, number>>('/api/admin/analytics/retention');
      // D1: cohorts A B C D G X (E's day 1 is today, not complete): A C D G X back the next day.
      expect(res.body['d1Retention']).toBeCloseTo(5 / 6);
      // D7: A B C X: A (-33), C (-3), X (-13).
      expect(res.body['d7Retention']).toBeCloseTo(3 / 4);
      // D30: A B: A (-10).
      expect(res.body['d30Retention']).toBeCloseTo(1 / 2);
      // Active in days -59..-30: A, B; of them not active in the last 30 days: B.
      expect(res.body['churnRate']).toBeCloseTo(1 / 2);
    });

    it('safety: reports, resolution time, blocks, the latest suspension state', async () => {
      expect((await get('/api/admin/analytics/safety')).body).toEqual({
        pendingReports: 2,
        resolvedReports: 2,
        totalReports: 4,
        avgResolutionTime: 16, // (30 h + 2 h) / 2
        totalBlocks: 2,
        totalSuspensions: 2, // B (version 5) and G (the late version 1 changed nothing); E unsuspended
      });
    });

    it('report trends by day and reason', async () => {
      expect((await get('/api/admin/analytics/report-trends?days=7')).body).toEqual([
        { date: day(-3), reason: 'harassment', count: 1 },
        { date: day(-3), reason: 'spam', count: 1 },
        { date: day(0), reason: 'fake_profile', count: 1 },
      ]);
      expect((await get('/api/admin/analytics/report-trends')).body).toEqual([
        { date: day(-20), reason: 'harassment', count: 1 },
        { date: day(-3), reason: 'harassment', count: 1 },
        { date: day(-3), reason: 'spam', count: 1 },
        { date: day(0), reason: 'fake_profile', count: 1 },
      ]);
    });

    it('user.deleted: no row keeps the member id; their facts share one stand-in id', async () => {
      expect(await columnsHolding(bed.dataSource, X)).toEqual([]);
      const xEvents = history.filter((e) => JSON.stringify(e.payload).includes(X)).map((e) => e.id);
      const rows: { user_id: string | null; other_user_id: string | null; type: string }[] = await bed.dataSource.query(
        'SELECT user_id, other_user_id, type FROM analytics_event WHERE id = ANY($1::uuid[])',
        [xEvents],
      );
      expect(rows).toHaveLength(xEvents.length);
      const standIns = new Set(rows.map((r) => (r.type === 'report.created' ? r.other_user_id : r.user_id)));
      expect(standIns.size).toBe(1);
      const [standIn] = [...standIns];
      expect(standIn).not.toBe(X);
      const [{ n }] = await bed.dataSource.query(`SELECT count(*)::int AS n FROM analytics_event WHERE type = 'user.deleted' AND user_id = $1`, [
        standIn,
      ]);
      expect(n).toBe(1);
      // A later event about X is dropped; a repeated deletion changes nothing.
      await publish([active(X, 0), event('user.deleted', { userId: X, deletedAt: at(0) })]);
      expect(await columnsHolding(bed.dataSource, X)).toEqual([]);
      expect((await get('/api/admin/analytics/overview')).body).toMatchObject({ totalUsers: 7 });
    });

    it('takes the period as the last `days` UTC days, today included: day -6 is in a week, day -7 is not', async () => {
      // Last: these reports change the safety totals above.
      await publish([
        report(randomUUID(), A, C, 'underage', -6, 0),
        report(randomUUID(), A, C, 'underage', -7, 23.99),
        report(randomUUID(), A, C, 'other', 0, 23.99),
      ]);
      const week = await get<{ date: string; reason: string; count: number }[]>('/api/admin/analytics/report-trends?days=7');
      expect(week.body.filter((r) => r.reason === 'underage')).toEqual([{ date: day(-6), reason: 'underage', count: 1 }]);
      expect(week.body).toContainEqual({ date: day(0), reason: 'other', count: 1 });
      const eight = await get<{ date: string; reason: string; count: number }[]>('/api/admin/analytics/report-trends?days=8');
      expect(eight.body.filter((r) => r.reason === 'underage')).toHaveLength(2);
      const one = await get<{ date: string; totalUsers: number; newUsers: number }[]>('/api/admin/analytics/user-growth?days=1');
      expect(one.body).toEqual([{ date: TODAY, totalUsers: 7, newUsers: 1 }]);
    });

    it('counts a match once by its id (republished under another event id) and keeps an ended match of a deleted member', async () => {
      // Last but one: this adds a match. M3 between C and D 40 days ago; its match.created arrives
      // twice under two event ids (a producer's republish); then D deletes their account.
      const M3 = randomUUID();
      await publish([match(M3, C, D, -40), match(M3, C, D, -40)]);
      await publish([event('user.deleted', { userId: D, deletedAt: at(0) })]);
      const overview = (await get('/api/admin/analytics/overview')).body;
      expect(overview['totalMatches']).toBe(4);
      for (const [days, inPeriod] of [[7, 1], [30, 2], [90, 4]] as const) {
        const res = (await get(`/api/admin/analytics/matches?days=${days}`)).body;
        expect({ days, ...res }).toMatchObject({ days, totalMatches: 4, matchesInPeriod: inPeriod, newMatches7d: 1, newMatches30d: 2 });
      }
    });

    it('the README holds each metric query as the code runs it', () => {
      const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
      const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
      for (const [name, sql] of Object.entries(ANALYTICS_SQL)) {
        expect({ name, inReadme: squash(readme).includes(squash(sql)) }).toEqual({ name, inReadme: true });
      }
    });
  });
});
