import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import Redis from 'ioredis';
import {
  INTERNAL_ADMIN_PATHS,
  INTERNAL_TOKEN_HEADER,
  QueueName,
  type AdminStatsDto,
  type JobEnvelope,
  type ReportAdminCommand,
  type ReportResultDto,
  type SafetyReportDetailPart,
  type SafetyReportsPagePart,
} from '@mate/contracts';
import { EVENT_JOB_OPTIONS } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import {
  startSafetyTestBed,
  TEST_INTERNAL_TOKEN,
  type SafetyMember,
  type SafetyTestBed,
} from '../../__tests__/safety-test-bed';

jest.setTimeout(60_000);

const ADMIN_ID = randomUUID();

/**
 * safety-service's side of the admin area (issue 13): the internal report routes admin-service
 * reads (internal credential only), and `jobs.report-admin` carried out once with report.resolved
 * in the same transaction. Real PostgreSQL and Redis; chat played by the test bed's HTTP stub.
 */
describe('safety: reports for admins (internal routes, jobs.report-admin)', () => {
  let t: SafetyTestBed;
  let connection: Redis;
  let commands: Queue;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_admin');
    connection = new Redis(t.bed.env.REDIS_URL as string, { maxRetriesPerRequest: null });
    commands = new Queue(QueueName.ReportAdmin, { connection, prefix: t.bed.env.KEY_PREFIX as string });
  }, 30_000);

  afterAll(async () => {
    await commands?.close();
    await connection?.quit();
    await t?.close();
  }, 30_000);

  const internal = <T>(path: string, credential = true) =>
    t.bed.call<T>('GET', path, {
      headers: credential ? { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN } : {},
    });

  async function reportOf(
    reporter: SafetyMember,
    reported: SafetyMember,
    body: Record<string, unknown> = {},
  ): Promise<string> {
    const res = await t.api<ReportResultDto>(reporter, 'POST', `/api/safety/report/${reported.userId}`, body);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** Adds the command exactly as admin-service's outbox relay will (an envelope, the row's id as job id) and waits for its end. */
  async function send(
    command: ReportAdminCommand | Record<string, unknown>,
    jobId: string = randomUUID(),
  ): Promise<Job> {
    const envelope = {
      id: jobId,
      queue: QueueName.ReportAdmin,
      createdAt: new Date().toISOString(),
      data: command,
    } as JobEnvelope<QueueName.ReportAdmin>;
    await commands.add(QueueName.ReportAdmin, envelope, { ...EVENT_JOB_OPTIONS, jobId });
    return waitFor(
      async () => {
        const state = await commands.getJobState(jobId);
        return state === 'completed' || state === 'failed' ? commands.getJob(jobId) : undefined;
      },
      { what: `report command ${jobId} carried out` },
    );
  }

  it('refuses every admin route without the internal credential', async () => {
    for (const path of [
      INTERNAL_ADMIN_PATHS.reports,
      INTERNAL_ADMIN_PATHS.report(randomUUID()),
      INTERNAL_ADMIN_PATHS.safetyMember(randomUUID()),
      INTERNAL_ADMIN_PATHS.safetyStats,
    ]) {
      expect((await internal(path, false)).status).toBe(403);
    }
    // A member's own token opens nothing either.
    const member = await t.member();
    expect((await t.api(member, 'GET', INTERNAL_ADMIN_PATHS.safetyStats)).status).toBe(403);
  });

  it('lists reports newest first with filters and paging, and validates the query', async () => {
    const [ann, ben, cat, dan] = [
      await t.member({ name: 'Ann' }),
      await t.member({ name: 'Ben' }),
      await t.member({ name: 'Cat' }),
      await t.member({ name: 'Dan' }),
    ];
    const first = await reportOf(ann, ben, { reason: 'spam' });
    const second = await reportOf(cat, ben, { reason: 'harassment', details: 'Rude words' });
    const third = await reportOf(dan, ann, { reason: 'spam' });

    const all = await internal<SafetyReportsPagePart>(`${INTERNAL_ADMIN_PATHS.reports}?limit=100`);
    expect(all.status).toBe(200);
    const ours = all.body.reports.filter((r) => [first, second, third].includes(r.id));
    expect(ours.map((r) => r.id)).toEqual([third, second, first]);
    expect(ours[1]).toEqual({
      id: second,
      status: 'pending',
      reason: 'harassment',
      details: 'Rude words',
      resolution: null,
      reporterId: cat.userId,
      reportedId: ben.userId,
      createdAt: expect.any(String),
      resolvedAt: null,
    });

    const spam = await internal<SafetyReportsPagePart>(
      `${INTERNAL_ADMIN_PATHS.reports}?status=pending&reason=spam&limit=100`,
    );
    expect(spam.body.reports.every((r) => r.reason === 'spam' && r.status === 'pending')).toBe(true);
    expect(spam.body.total).toBe(spam.body.reports.length);

    const page1 = await internal<SafetyReportsPagePart>(`${INTERNAL_ADMIN_PATHS.reports}?limit=1&offset=0`);
    const page2 = await internal<SafetyReportsPagePart>(`${INTERNAL_ADMIN_PATHS.reports}?limit=1&offset=1`);
    expect(page1.body.reports).toHaveLength(1);
    expect(page2.body.reports).toHaveLength(1);
    expect(page1.body.reports[0].id).not.toBe(page2.body.reports[0].id);
    expect(page1.body.total).toBe(all.body.total);

    for (const bad of [
      'status=open',
      'reason=rude',
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'offset=100001',
      'extra=1',
    ]) {
      const res = await internal<{ error: string }>(`${INTERNAL_ADMIN_PATHS.reports}?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await internal(INTERNAL_ADMIN_PATHS.report('not-a-uuid'))).status).toBe(400);
    expect((await internal(INTERNAL_ADMIN_PATHS.safetyMember('not-a-uuid'))).status).toBe(400);
  });

  it('answers one report with its snapshot, and 404 for none', async () => {
    const [eve, fay] = [await t.member({ name: 'Eve' }), await t.member({ name: 'Fay' })];
    const said = t.chat.say(fay, eve, 'Send me money', 5);
    const id = await reportOf(eve, fay, { reason: 'fake_profile' });
    const res = await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(id.toUpperCase()));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'pending',
      reason: 'fake_profile',
      reporterId: eve.userId,
      reportedId: fay.userId,
    });
    expect(res.body.snapshot).toEqual({
      reportedProfile: expect.objectContaining({ userId: fay.userId, name: 'Fay' }),
      messagesStatus: 'captured',
      messages: [{ id: said.id, senderId: fay.userId, content: 'Send me money', createdAt: said.createdAt }],
      messagesCapturedAt: expect.any(String),
    });
    expect(res.body.snapshot.reportedProfile).not.toHaveProperty('latitude');

    // No conversation: captured empty is `none`; chat away: `pending`.
    const gus = await t.member({ name: 'Gus' });
    const quiet = await reportOf(gus, fay);
    expect(
      (await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(quiet))).body.snapshot,
    ).toMatchObject({ messagesStatus: 'none', messages: [] });
    t.chat.hang = true;
    try {
      const hal = await t.member({ name: 'Hal' });
      const waiting = await reportOf(hal, fay);
      expect(
        (await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(waiting))).body.snapshot,
      ).toMatchObject({
        messagesStatus: 'pending',
        messages: [],
        messagesCapturedAt: null,
      });
    } finally {
      t.chat.hang = false;
    }

    expect(await internal(INTERNAL_ADMIN_PATHS.report(randomUUID()))).toMatchObject({
      status: 404,
      body: { error: 'Report not found' },
    });
  });

  it("counts a member's reports made and received, and the report statistics by reason", async () => {
    const [ivy, jon, kim] = [await t.member(), await t.member(), await t.member()];
    await reportOf(ivy, jon, { reason: 'underage' });
    await reportOf(kim, jon, { reason: 'underage' });
    await reportOf(jon, ivy, { reason: 'other' });
    expect((await internal(INTERNAL_ADMIN_PATHS.safetyMember(jon.userId))).body).toEqual({
      reportsMade: 1,
      reportsReceived: 2,
    });
    expect((await internal(INTERNAL_ADMIN_PATHS.safetyMember(randomUUID()))).body).toEqual({
      reportsMade: 0,
      reportsReceived: 0,
    });

    const stats = await internal<AdminStatsDto['reports']>(INTERNAL_ADMIN_PATHS.safetyStats);
    expect(stats.status).toBe(200);
    const [counted] = await t.bed.dataSource.query(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'pending'))::int AS pending FROM report`,
    );
    expect({ total: stats.body.total, pending: stats.body.pending }).toEqual(counted);
    const counts = stats.body.byReason.map((r) => r.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(stats.body.total);
    expect(stats.body.byReason.find((r) => r.reason === 'underage')?.count).toBeGreaterThanOrEqual(2);
  });

  it('resolves only a pending report, once, with report.resolved in the same transaction', async () => {
    const [leo, mia] = [await t.member(), await t.member()];
    const id = await reportOf(leo, mia, { reason: 'harassment' });
    const jobId = randomUUID();
    const done = await send(
      {
        kind: 'resolve',
        reportId: id,
        status: 'reviewed',
        resolution: '  Warned the member  ',
        adminId: ADMIN_ID,
      },
      jobId,
    );
    expect(done.returnvalue).toBe('resolved');
    const detail = await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(id));
    expect(detail.body).toMatchObject({
      status: 'reviewed',
      resolution: 'Warned the member',
      resolvedAt: expect.any(String),
    });

    const events = (await t.events('report.resolved')).filter((e) => e.payload.reportId === id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      reportId: id,
      reporterId: leo.userId,
      reportedId: mia.userId,
      reason: 'harassment',
      status: 'reviewed',
      reportedAt: detail.body.createdAt,
      resolvedAt: detail.body.resolvedAt,
    });

    // The same command again, and another decision on a decided report: no change, no event.
    const again = await send({
      kind: 'resolve',
      reportId: id,
      status: 'reviewed',
      resolution: 'Warned the member',
      adminId: ADMIN_ID,
    });
    const other = await send({
      kind: 'resolve',
      reportId: id,
      status: 'dismissed',
      resolution: null,
      adminId: ADMIN_ID,
    });
    expect([again.returnvalue, other.returnvalue]).toEqual(['already-decided', 'already-decided']);
    expect((await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(id))).body).toMatchObject({
      status: 'reviewed',
      resolution: 'Warned the member',
      resolvedAt: detail.body.resolvedAt,
    });
    expect((await t.events('report.resolved')).filter((e) => e.payload.reportId === id)).toHaveLength(1);

    // Dismissed without a note.
    const nia = await t.member();
    const dismissed = await reportOf(nia, mia);
    expect(
      (await send({ kind: 'resolve', reportId: dismissed, status: 'dismissed', adminId: ADMIN_ID }))
        .returnvalue,
    ).toBe('resolved');
    expect(
      (await internal<SafetyReportDetailPart>(INTERNAL_ADMIN_PATHS.report(dismissed))).body,
    ).toMatchObject({ status: 'dismissed', resolution: null });
  });

  it('finishes an unknown report as done and refuses unreadable commands without retrying', async () => {
    const unknown = await send({
      kind: 'resolve',
      reportId: randomUUID(),
      status: 'reviewed',
      resolution: null,
      adminId: ADMIN_ID,
    });
    expect(await unknown.getState()).toBe('completed');
    expect(unknown.returnvalue).toBe('no-report');

    for (const bad of [
      { kind: 'resolve', reportId: randomUUID(), status: 'pending', adminId: ADMIN_ID },
      { kind: 'delete', reportId: randomUUID(), status: 'reviewed', adminId: ADMIN_ID },
      { kind: 'resolve', reportId: 'nope', status: 'reviewed', adminId: ADMIN_ID },
      { kind: 'resolve', reportId: randomUUID(), status: 'reviewed', adminId: ADMIN_ID, extra: true },
      {
        kind: 'resolve',
        reportId: randomUUID(),
        status: 'reviewed',
        adminId: ADMIN_ID,
        resolution: 'x'.repeat(1001),
      },
    ]) {
      const job = await send(bad);
      expect(await job.getState()).toBe('failed');
      expect(job.attemptsMade).toBe(1);
    }
  });
});
