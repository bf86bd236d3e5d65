import { Queue } from 'bullmq';
import {
  DEFAULT_REPORT_REASON,
  QueueName,
  ErrorCode,
  REPORT_MESSAGE_SNAPSHOT_SIZE,
  REPORTS_PER_HOUR,
  SafetyErrorCode,
  SafetyMessages,
  type ReportCreatedPayload,
  type ReportResultDto,
} from '@mate/contracts';
import { waitFor } from '@mate/server-kit/testing';
import { startSafetyTestBed, type SafetyTestBed } from '../../__tests__/safety-test-bed';
import { EVIDENCE_SWEEP_SCHEDULER_ID } from '../evidence.worker';

interface StoredReport {
  reporter_id: string;
  reported_id: string;
  reason: string;
  details: string | null;
  status: string;
  created_at: Date;
  reported_profile: Record<string, unknown> | null;
  messages: { id: string; content: string; senderId: string }[] | null;
  messages_status: string;
}

/**
 * Reports. chat-service's internal snapshot route is played by ChatStub, a minimal real HTTP
 * server that answers the contract (see safety-test-bed.ts): the call crosses a real socket with
 * the real client, credential and timeout; chat's own tests cover the route's implementation.
 */
describe('reports (real PostgreSQL and Redis; chat played by a real HTTP stub)', () => {
  let t: SafetyTestBed;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_reports', { env: { SAFETY_CHAT_TIMEOUT_MS: '400' } });
  }, 30_000);

  afterAll(async () => {
    await t?.close();
  }, 30_000);

  let evidenceQueue: Queue;
  beforeAll(() => {
    evidenceQueue = new Queue(QueueName.SafetyEvidence, { connection: { url: t.bed.env.REDIS_URL }, prefix: t.bed.env.KEY_PREFIX });
  });
  afterAll(async () => {
    await evidenceQueue?.close();
  });

  afterEach(() => {
    t.chat.hang = false;
  });

  const stored = async (id: string): Promise<StoredReport> =>
    (await t.bed.dataSource.query('SELECT * FROM report WHERE id = $1', [id]))[0];

  it('stores a report with the default reason, the reported profile without coordinates and the last 20 messages', async () => {
    const ann = await t.member({ name: 'Ann' });
    const bob = await t.member({ name: 'Bob', photo: 'https://cdn.example/bob.jpg' });
    const other = await t.member();
    for (let i = 0; i < 25; i++) t.chat.say(i % 2 ? ann : bob, i % 2 ? bob : ann, `message ${i}`, 60 - i);
    t.chat.say(bob, other, 'not between them', 5);

    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), reportedId: bob.userId, reason: DEFAULT_REPORT_REASON, createdAt: expect.any(String) });

    const report = await stored(res.body.id);
    expect(report).toMatchObject({
      reporter_id: ann.userId,
      reported_id: bob.userId,
      reason: 'inappropriate_content',
      details: null,
      status: 'pending',
      messages_status: 'complete',
    });
    expect(report.created_at.toISOString()).toBe(res.body.createdAt);
    expect(report.reported_profile).toMatchObject({ userId: bob.userId, name: 'Bob', profilePicture: 'https://cdn.example/bob.jpg', bio: 'Hello there' });
    expect(report.reported_profile).not.toHaveProperty('latitude');
    expect(report.reported_profile).not.toHaveProperty('longitude');
    expect(report.messages).toHaveLength(REPORT_MESSAGE_SNAPSHOT_SIZE);
    expect(report.messages?.map((m) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 5}`));

    // chat was asked with the internal credential, the report's time and the snapshot size.
    const asked = t.chat.requests[t.chat.requests.length - 1];
    expect(asked).toMatchObject({ path: `/internal/chat/pairs/${ann.userId}/${bob.userId}/messages`, trusted: true });
    expect(asked.query.get('before')).toBe(res.body.createdAt);
    expect(asked.query.get('limit')).toBe('20');

    // report.created is a fact without the details text.
    const events = await t.events('report.created');
    const created = events.find((e) => e.payload.reportId === res.body.id);
    expect(created).not.toHaveProperty('aggregateVersion');
    expect(created).toMatchObject({
      payload: {
        reportId: res.body.id,
        reporterId: ann.userId,
        reportedId: bob.userId,
        reason: 'inappropriate_content',
        hasDetails: false,
        createdAt: res.body.createdAt,
      } satisfies ReportCreatedPayload,
    });
  });

  it('keeps the report whole after the reported member’s profile and messages are gone', async () => {
    const ann = await t.member();
    const bob = await t.member({ name: 'Bob' });
    t.chat.say(bob, ann, 'something awful', 1);
    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'harassment', details: 'He said it' });
    t.chat.messages = [];
    await t.bed.dataSource.query('DELETE FROM safety_member WHERE user_id = $1', [bob.userId]);
    const report = await stored(res.body.id);
    expect(report).toMatchObject({ reason: 'harassment', details: 'He said it', reported_profile: { name: 'Bob' } });
    expect(report.messages?.map((m) => m.content)).toEqual(['something awful']);
  });

  it('validates the reason and the details (1,000 characters after trimming; control characters stripped)', async () => {
    const ann = await t.member();
    const targets = await Promise.all([t.member(), t.member(), t.member()]);
    expect(await t.api(ann, 'POST', `/api/safety/report/${targets[0].userId}`, { reason: 'ugly' })).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.invalidReason },
    });
    expect(await t.api(ann, 'POST', `/api/safety/report/${targets[0].userId}`, { details: 'x'.repeat(1001) })).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.detailsTooLong },
    });
    expect(await t.api(ann, 'POST', `/api/safety/report/${targets[0].userId}`, { reason: 'spam', urgent: true })).toMatchObject({
      status: 400,
      body: { error: 'Unknown field: urgent' },
    });
    expect(await t.api(ann, 'POST', `/api/safety/report/${targets[0].userId}`, { details: 7 })).toMatchObject({ status: 400 });

    const exact = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${targets[0].userId}`, {
      reason: 'fake_profile',
      details: `  ${'x'.repeat(1000)}\u0001 `,
    });
    expect(exact.status).toBe(201);
    expect((await stored(exact.body.id)).details).toBe('x'.repeat(1000));

    const hostile = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${targets[1].userId}`, {
      reason: 'other',
      details: '<script>alert(1)</script>\u202Egnp.exe\u0007',
    });
    expect(hostile.status).toBe(201);
    expect((await stored(hostile.body.id)).details).toBe('<script>alert(1)</script>gnp.exe');

    const blank = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${targets[2].userId}`, { reason: 'underage', details: ' \u200B ' });
    expect(blank.status).toBe(201);
    expect((await stored(blank.body.id)).details).toBeNull();
    const created = (await t.events('report.created')).find((e) => e.payload.reportId === blank.body.id);
    expect(created?.payload.hasDetails).toBe(false);
  });

  it('refuses self, bad ids and unknown members', async () => {
    const ann = await t.member();
    const ghost = await t.member({ known: false });
    expect(await t.api(ann, 'POST', `/api/safety/report/${ann.userId}`, {})).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.reportSelf, code: SafetyErrorCode.ReportSelf },
    });
    expect(await t.api(ann, 'POST', '/api/safety/report/123', {})).toMatchObject({ status: 400 });
    expect(await t.api(ann, 'POST', `/api/safety/report/${ghost.userId}`, {})).toMatchObject({
      status: 404,
      body: { error: SafetyMessages.memberNotFound, code: SafetyErrorCode.MemberNotFound },
    });
  });

  it('allows one report per member within 24 hours (409), and another after', async () => {
    const ann = await t.member();
    const bob = await t.member();
    const first = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'spam' });
    expect(first.status).toBe(201);
    expect(await t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'harassment' })).toMatchObject({
      status: 409,
      body: { error: SafetyMessages.alreadyReported, code: SafetyErrorCode.AlreadyReported },
    });
    // Bob may still report Ann.
    expect((await t.api(bob, 'POST', `/api/safety/report/${ann.userId}`, {})).status).toBe(201);
    // 24 hours later (moved in the database, as if the report were a day old).
    await t.bed.dataSource.query(`UPDATE report SET created_at = created_at - interval '24 hours 1 second' WHERE id = $1`, [first.body.id]);
    expect((await t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'harassment' })).status).toBe(201);
  });

  it('makes one report of concurrent duplicates', async () => {
    const ann = await t.member();
    const bob = await t.member();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, {})));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const [{ count }] = await t.bed.dataSource.query(
      'SELECT count(*)::int AS count FROM report WHERE reporter_id = $1 AND reported_id = $2',
      [ann.userId, bob.userId],
    );
    expect(count).toBe(1);
    expect((await t.events('report.created')).filter((e) => e.payload.reporterId === ann.userId)).toHaveLength(1);
  });

  it(`limits reports to ${REPORTS_PER_HOUR} an hour per member (429)`, async () => {
    const ann = await t.member();
    const others = await Promise.all(Array.from({ length: REPORTS_PER_HOUR + 1 }, () => t.member()));
    for (const other of others.slice(0, REPORTS_PER_HOUR)) {
      expect((await t.api(ann, 'POST', `/api/safety/report/${other.userId}`, {})).status).toBe(201);
    }
    expect(await t.api(ann, 'POST', `/api/safety/report/${others[REPORTS_PER_HOUR].userId}`, {})).toMatchObject({
      status: 429,
      body: { error: SafetyMessages.tooManyReports, code: ErrorCode.RateLimited },
    });
  });

  it('stores the report with messages pending when chat is down, and the job fills them when chat is back', async () => {
    const ann = await t.member();
    const bob = await t.member();
    t.chat.say(bob, ann, 'before the report', 2);
    await t.chat.stop();
    let id: string;
    let jobId: string;
    try {
      const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, {});
      expect(res.status).toBe(201);
      id = res.body.id;
      expect(await stored(id)).toMatchObject({ messages: null, messages_status: 'pending' });
      const [job] = await t.bed.dataSource.query(
        `SELECT id, body FROM outbox WHERE kind = 'job' AND name = 'jobs.safety-evidence' AND body->'data'->>'reportId' = $1`,
        [id],
      );
      expect(job.body.data).toEqual({ reportId: id });
      jobId = job.id;
      // The job tried while chat was down, failed, and waits for its retry (backoff).
      await waitFor(async () => ((await evidenceQueue.getJob(job.id))?.attemptsMade ?? 0) >= 1, {
        timeoutMs: 10_000,
        what: 'a failed first attempt of the evidence job',
      });
      expect(await stored(id)).toMatchObject({ messages_status: 'pending' });
      // A message sent after the report is not part of it.
      t.chat.say(bob, ann, 'after the report', 0);
      t.chat.messages[t.chat.messages.length - 1].createdAt = new Date(Date.now() + 60_000).toISOString();
    } finally {
      await t.chat.start();
    }
    const filled = await waitFor(
      async () => {
        const report = await stored(id);
        return report.messages_status === 'complete' ? report : null;
      },
      { timeoutMs: 20_000, what: 'the evidence job to fill the snapshot' },
    );
    expect(filled.messages?.map((m) => m.content)).toEqual(['before the report']);
    // It was the report's own job, retried after its failed attempt.
    const done = await waitFor(async () => {
      const job = await evidenceQueue.getJob(jobId);
      return job?.finishedOn ? job : null;
    }, { timeoutMs: 10_000, what: 'the evidence job to finish' });
    expect(done.returnvalue).toBe('filled');
    expect(done.attemptsMade).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('fills a report whose own job ran out of attempts on the next sweep', async () => {
    const ann = await t.member();
    const bob = await t.member();
    t.chat.say(ann, bob, 'kept for the moderators', 3);
    // As a report stored while chat was away for longer than its job's retries: pending, no job left.
    const [{ id }] = await t.bed.dataSource.query(
      `INSERT INTO report (id, reporter_id, reported_id, reason, created_at, messages_status)
       VALUES (gen_random_uuid(), $1, $2, 'spam', now(), 'pending') RETURNING id`,
      [ann.userId, bob.userId],
    );
    // Every replica schedules the same sweep (one id); its job is the one the scheduler would add.
    const schedulers = await evidenceQueue.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.every])).toEqual([[EVIDENCE_SWEEP_SCHEDULER_ID, 5 * 60_000]]);
    await evidenceQueue.add(EVIDENCE_SWEEP_SCHEDULER_ID, { sweep: true });
    const filled = await waitFor(
      async () => {
        const report = await stored(id);
        return report.messages_status === 'complete' ? report : null;
      },
      { timeoutMs: 10_000, what: 'the sweep to fill the snapshot' },
    );
    expect(filled.messages?.map((m) => m.content)).toEqual(['kept for the moderators']);
  }, 20_000);

  it('does not wait for a slow chat longer than its timeout', async () => {
    const ann = await t.member();
    const bob = await t.member();
    t.chat.hang = true;
    const started = Date.now();
    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'spam' });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stored(res.body.id)).toMatchObject({ messages_status: 'pending' });
    t.chat.hang = false;
    await waitFor(async () => (await stored(res.body.id)).messages_status === 'complete', {
      timeoutMs: 20_000,
      what: 'the evidence job after a slow chat',
    });
  }, 30_000);
});
