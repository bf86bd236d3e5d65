import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import Redis from 'ioredis';
import {
  AuthErrorCode,
  AuthMessages,
  EVENT_CATALOGUE,
  eventQueueName,
  QueueName,
  SERVICES,
  type AccountAdminCommand,
  type EventEnvelope,
  type JobEnvelope,
} from '@mate/contracts';
import { EVENT_JOB_OPTIONS, SessionStore, sessionRevokedChannel } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { DataSource } from 'typeorm';
import { SessionsService } from '../../sessions/sessions.service';
import {
  PASSWORD,
  startAuthTestBed,
  type AuthTestBed,
  type RegisteredMember,
} from '../../__tests__/auth-test-bed';

const ADMIN_ID = randomUUID();

describe('an admin’s commands on accounts: jobs.account-admin (issue 13)', () => {
  let bed: AuthTestBed;
  let ds: DataSource;
  let connection: Redis;
  let commands: Queue;
  let profileEvents: Queue;
  let seq = 0;
  const email = (label: string) => `${label}-${++seq}@mate.test`;

  beforeAll(async () => {
    bed = await startAuthTestBed('auth_admin_cmd');
    ds = bed.svc.dataSource;
    connection = new Redis(bed.svc.env.REDIS_URL as string, { maxRetriesPerRequest: null });
    const prefix = bed.svc.env.KEY_PREFIX as string;
    commands = new Queue(QueueName.AccountAdmin, { connection, prefix });
    // profile-service hears every user.* event: its queue shows what auth published, in order.
    profileEvents = new Queue(eventQueueName(SERVICES.profile), { connection, prefix });
  });

  afterAll(async () => {
    await commands?.close();
    await profileEvents?.close();
    await connection?.quit();
    await bed?.close();
  });

  /** Adds the command exactly as admin-service's outbox relay will (an envelope, the row's id as job id) and waits for its end. */
  async function send(
    command: AccountAdminCommand | Record<string, unknown>,
    jobId: string = randomUUID(),
  ): Promise<Job> {
    const envelope = {
      id: jobId,
      queue: QueueName.AccountAdmin,
      createdAt: new Date().toISOString(),
      data: command,
    } as JobEnvelope<QueueName.AccountAdmin>;
    await commands.add(QueueName.AccountAdmin, envelope, { ...EVENT_JOB_OPTIONS, jobId });
    return waitFor(
      async () => {
        // The state first: a job read before it finished would lack its result.
        const state = await commands.getJobState(jobId);
        return state === 'completed' || state === 'failed' ? commands.getJob(jobId) : undefined;
      },
      { what: `command ${JSON.stringify(command)} carried out` },
    );
  }

  /** user.* events about this member that reached profile-service's queue, by aggregate version. */
  async function eventsOf(userId: string): Promise<EventEnvelope[]> {
    const jobs = await profileEvents.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    return jobs
      .map((j) => j.data as EventEnvelope)
      .filter((e) => (e.payload as { userId?: string }).userId === userId)
      .sort((a, b) => (a.aggregateVersion ?? 0) - (b.aggregateVersion ?? 0));
  }
  /** Once the relay is idle (events and email jobs alike), so nothing written is still on its way. */
  async function settledEventsOf(userId: string): Promise<EventEnvelope[]> {
    await waitFor(
      async () =>
        (await ds.query(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`))[0].n === 0
          ? true
          : undefined,
      {
        what: 'the outbox relayed',
      },
    );
    return eventsOf(userId);
  }

  const signIn = (address: string) =>
    bed.call<{ token?: string; error?: string; code?: string }>('POST', '/api/auth/login', {
      body: { email: address, password: PASSWORD },
    });

  async function memberWithTwoSessions(
    label: string,
  ): Promise<RegisteredMember & { address: string; secondToken: string; sessionIds: string[] }> {
    const address = email(label);
    const member = await bed.registerVerified(address);
    const second = await signIn(address);
    expect(second.status).toBe(200);
    const sessionIds: string[] = (
      await ds.query('SELECT id FROM sessions WHERE user_id = $1', [member.user.id])
    ).map((r: { id: string }) => r.id);
    expect(sessionIds).toHaveLength(2);
    return { ...member, address, secondToken: second.body.token as string, sessionIds };
  }

  it('suspend ends every session at once, refuses sign-in with the message, sends no reset email and publishes user.suspended', async () => {
    const member = await memberWithTwoSessions('suspend');
    const id = member.user.id;
    const subscriber = new Redis(bed.svc.env.REDIS_URL as string);
    const announced: string[] = [];
    subscriber.on('message', (_channel, sessionId: string) => announced.push(sessionId));
    await subscriber.subscribe(sessionRevokedChannel(bed.svc.env.KEY_PREFIX as string));
    try {
      const job = await send({
        kind: 'suspend',
        userId: id,
        reason: 'Harassment reported twice',
        adminId: ADMIN_ID,
      });

      expect(await job.getState()).toBe('completed');
      expect(job.returnvalue).toBe('done');
      // The session store no longer knows the sessions: every guard refuses them, and the gateways are told to close their sockets.
      const store = bed.svc.app.get(SessionStore);
      for (const sessionId of member.sessionIds) expect(await store.touch(sessionId, id)).toBeNull();
      await waitFor(async () => (member.sessionIds.every((s) => announced.includes(s)) ? true : undefined), {
        what: 'both sessions announced as ended',
      });
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(401);
      expect((await bed.call('GET', '/api/auth/me', { token: member.secondToken })).status).toBe(401);
      const open: { n: number }[] = await ds.query(
        'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
        [id],
      );
      expect(open[0].n).toBe(0);

      expect(await signIn(member.address)).toMatchObject({
        status: 403,
        body: { error: AuthMessages.accountSuspended, code: AuthErrorCode.AccountSuspended },
      });
      // A wrong password still says only that the credentials are wrong: the refusal does not reveal the suspension to a guesser.
      const wrong = await bed.call('POST', '/api/auth/login', {
        body: { email: member.address, password: 'not the password' },
      });
      expect(wrong.status).toBe(401);
      expect(
        (await bed.call('POST', '/api/auth/forgot-password', { body: { email: member.address } })).status,
      ).toBe(200);

      const [account] = await ds.query('SELECT suspended_at, suspension_reason FROM users WHERE id = $1', [
        id,
      ]);
      expect(account).toEqual({
        suspended_at: expect.any(Date),
        suspension_reason: 'Harassment reported twice',
      });
      const events = await settledEventsOf(id);
      expect(events.map((e) => [e.name, e.aggregateVersion])).toEqual([
        ['user.registered', 1],
        ['user.verified', 2],
        ['user.suspended', 3],
      ]);
      expect(events[2]).toMatchObject({
        producer: SERVICES.auth,
        aggregateType: 'user',
        aggregateId: id,
        payload: {
          userId: id,
          suspended: true,
          reason: 'Harassment reported twice',
          suspendedAt: account.suspended_at.toISOString(),
        },
      });
      expect((await bed.emailsTo(member.address)).filter((e) => e.template === 'reset-password')).toEqual([]);
    } finally {
      await subscriber.quit();
    }
  });

  it('unsuspend restores sign-in and publishes user.unsuspended; each command twice does it once', async () => {
    const member = await memberWithTwoSessions('unsuspend');
    const id = member.user.id;

    const first = await send({ kind: 'suspend', userId: id, reason: 'Spam', adminId: ADMIN_ID });
    // The same command again (a second admin's click, a re-sent row) changes nothing, not even the reason or the time.
    const [before] = await ds.query('SELECT suspended_at, suspension_reason FROM users WHERE id = $1', [id]);
    const again = await send({ kind: 'suspend', userId: id, reason: 'Another reason', adminId: ADMIN_ID });
    expect([first.returnvalue, again.returnvalue]).toEqual(['done', 'unchanged']);
    expect(await ds.query('SELECT suspended_at, suspension_reason FROM users WHERE id = $1', [id])).toEqual([
      before,
    ]);
    // The same job (its outbox row relayed twice) is one job to BullMQ.
    const jobId = randomUUID();
    const lifted = await send({ kind: 'unsuspend', userId: id, adminId: ADMIN_ID }, jobId);
    await commands.add(QueueName.AccountAdmin, lifted.data, { ...EVENT_JOB_OPTIONS, jobId });
    const liftedAgain = await send({ kind: 'unsuspend', userId: id, adminId: ADMIN_ID });
    expect([lifted.returnvalue, liftedAgain.returnvalue]).toEqual(['done', 'unchanged']);

    const login = await signIn(member.address);
    expect(login.status).toBe(200);
    expect((await bed.call('GET', '/api/auth/me', { token: login.body.token })).status).toBe(200);
    expect(await ds.query('SELECT suspended_at, suspension_reason FROM users WHERE id = $1', [id])).toEqual([
      { suspended_at: null, suspension_reason: null },
    ]);
    const events = await settledEventsOf(id);
    expect(events.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['user.registered', 1],
      ['user.verified', 2],
      ['user.suspended', 3],
      ['user.unsuspended', 4],
    ]);
    expect(events[3].payload).toEqual({ userId: id, suspended: false, unsuspendedAt: expect.any(String) });
  });

  it('a sign-in whose session goes live while the account is suspended ends it and says why', async () => {
    const member = await bed.registerVerified(email('race'));
    await send({ kind: 'suspend', userId: member.user.id, reason: 'Fake profile', adminId: ADMIN_ID });
    const sessions = bed.svc.app.get(SessionsService);

    // As a sign-in that checked the account just before the suspension committed.
    await expect(
      sessions.start(member.user.id, 'member', true, { deviceInfo: 'test', ipAddress: null }),
    ).rejects.toMatchObject({ status: 403 });
    const open: { n: number }[] = await ds.query(
      'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [member.user.id],
    );
    expect(open[0].n).toBe(0);
    const live = await connection.smembers(`${bed.svc.env.KEY_PREFIX}:user-sessions:${member.user.id}`);
    expect(live).toEqual([]);
  });

  it('delete erases the account without an email confirmation: sessions end, user.deleted goes out, sign-in fails', async () => {
    const member = await memberWithTwoSessions('delete');
    const id = member.user.id;

    const job = await send({ kind: 'delete', userId: id, adminId: ADMIN_ID });

    expect(job.returnvalue).toBe('done');
    expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(401);
    expect((await bed.call('GET', '/api/auth/me', { token: member.secondToken })).status).toBe(401);
    expect(await ds.query('SELECT id FROM users WHERE id = $1', [id])).toEqual([]);
    expect(await ds.query('SELECT id FROM sessions WHERE user_id = $1', [id])).toEqual([]);
    expect((await signIn(member.address)).status).toBe(401);
    const deleted = await waitFor(async () => (await eventsOf(id)).find((e) => e.name === 'user.deleted'), {
      what: 'user.deleted in profile-service’s queue',
    });
    expect(deleted).toMatchObject({
      producer: SERVICES.auth,
      payload: { userId: id, deletedAt: expect.any(String) },
    });
    // Again: the account is gone, so the command is done.
    expect((await send({ kind: 'delete', userId: id, adminId: ADMIN_ID })).returnvalue).toBe('unknown');
  });

  it.each(['suspend', 'unsuspend', 'delete'] as const)(
    '%s of an account that does not exist is done and publishes nothing',
    async (kind) => {
      const userId = randomUUID();
      const job = await send(
        kind === 'suspend'
          ? { kind, userId, reason: 'x', adminId: ADMIN_ID }
          : { kind, userId, adminId: ADMIN_ID },
      );

      expect(await job.getState()).toBe('completed');
      expect(job.returnvalue).toBe('unknown');
      expect(await settledEventsOf(userId)).toEqual([]);
    },
  );

  it.each([
    [
      { kind: 'ban', userId: randomUUID(), adminId: ADMIN_ID },
      'kind must be one of suspend, unsuspend, delete',
    ],
    [{ kind: 'suspend', userId: 'not-an-id', reason: 'x', adminId: ADMIN_ID }, 'userId must be a UUID'],
    [{ kind: 'suspend', userId: randomUUID(), adminId: ADMIN_ID }, 'reason must be a string'],
    [{ kind: 'suspend', userId: randomUUID(), reason: '', adminId: ADMIN_ID }, 'reason must not be empty'],
    [{ kind: 'unsuspend', userId: randomUUID() }, 'adminId must be a UUID'],
    [
      { kind: 'delete', userId: randomUUID(), adminId: ADMIN_ID, everything: true },
      'unknown field: everything',
    ],
  ])('refuses the unreadable command %j without retrying it', async (command, error) => {
    const job = await send(command);

    expect(await job.getState()).toBe('failed');
    expect(job.failedReason).toBe(`unreadable account command: ${error}`);
    expect(job.attemptsMade).toBe(1);
  });

  it('two admins suspending at once suspend once: the row lock puts one command after the other', async () => {
    const member = await bed.registerVerified(email('parallel'));
    const id = member.user.id;

    const jobs = await Promise.all([
      send({ kind: 'suspend', userId: id, reason: 'First', adminId: ADMIN_ID }),
      send({ kind: 'suspend', userId: id, reason: 'Second', adminId: randomUUID() }),
    ]);

    expect(jobs.map((j) => j.returnvalue).sort()).toEqual(['done', 'unchanged']);
    expect((await settledEventsOf(id)).filter((e) => e.name === 'user.suspended')).toHaveLength(1);
  });

  it('suspension’s effect within one second: the job ends the sessions before it completes and user.suspended reaches every consumer’s queue within a second', async () => {
    const member = await memberWithTwoSessions('within-a-second');
    const id = member.user.id;
    const consumers = EVENT_CATALOGUE['user.suspended'].consumers;
    const queues = consumers.map(
      (service) =>
        new Queue(eventQueueName(service), { connection, prefix: bed.svc.env.KEY_PREFIX as string }),
    );
    try {
      const job = await send({ kind: 'suspend', userId: id, reason: 'Within a second', adminId: ADMIN_ID });
      const completedAt = job.finishedOn ?? Date.now();
      // auth's own part is done when the job is: both sessions are refused already.
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(401);
      expect((await bed.call('GET', '/api/auth/me', { token: member.secondToken })).status).toBe(401);
      // Every other service's part starts when the fact is on its queue (its consumer then applies it in one transaction).
      const arrived = await waitFor(
        async () => {
          const found = await Promise.all(
            queues.map(async (q) => {
              const jobs = await q.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
              const event = jobs.find(
                (j) =>
                  (j.data as EventEnvelope).name === 'user.suspended' &&
                  (j.data as EventEnvelope<'user.suspended'>).payload.userId === id,
              );
              return event ? event.timestamp : undefined;
            }),
          );
          return found.every((t) => t !== undefined) ? (found as number[]) : undefined;
        },
        { what: 'user.suspended on every consumer queue', intervalMs: 10 },
      );
      expect(Math.max(...arrived) - completedAt).toBeLessThan(1_000);
      expect(consumers).toEqual(
        expect.arrayContaining([SERVICES.profile, SERVICES.matching, SERVICES.chat, SERVICES.call]),
      );
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  });
});
