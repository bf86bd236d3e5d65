import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import webpush from 'web-push';
import {
  AuthErrorCode,
  AuthMessages,
  SERVICES,
  type EventName,
  type EventPayloads,
  type NotificationPreferenceKey,
  type PushPayload,
  type ServiceName,
} from '@mate/contracts';
import {
  createQueueConnection,
  EventConsumer,
  presenceField,
  presenceInstanceKey,
  presenceUserKey,
  REDIS,
} from '@mate/server-kit';
import {
  aProfile,
  eventEnvelope,
  startServiceTestBed,
  waitFor,
  type ServiceTestBed,
  type SignedIn,
} from '@mate/server-kit/testing';
import { columnsHolding } from '@mate/testing';
import { AppModule } from '../../app.module';
import { PushBursts } from '../push-bursts';
import { PUSH_QUEUE } from '../push-jobs';
import { PUSH_TLS_OPTIONS } from '../push-settings';
import { Browser, PushServiceStandIn } from './push-service-stand-in';

jest.setTimeout(90_000);

/**
 * Issue 12's acceptance: events in, encrypted pushes out to a stand-in for the browser vendor's
 * push service on loopback, decrypted here with the keys the test's "browser" made.
 */
describe('notification-service push delivery (real PostgreSQL, Redis, BullMQ; a stand-in push service)', () => {
  const vapid = webpush.generateVAPIDKeys();
  const standIn = new PushServiceStandIn();
  let bed: ServiceTestBed;
  let consumer: EventConsumer;
  let redis: Redis;
  let queueConnection: Redis;
  let pushQueue: Queue;

  beforeAll(async () => {
    await standIn.start();
    bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label: 'notification_push_delivery',
      env: {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:push@mate.test',
        PUSH_ALLOW_LOOPBACK_ENDPOINTS: 'on',
        PUSH_COLLAPSE_MS: '800',
        PUSH_BACKOFF_MS: '100',
        PUSH_ATTEMPTS: '6',
      },
      overrides: [{ provide: PUSH_TLS_OPTIONS, useValue: { ca: standIn.certificate } }],
    });
    consumer = bed.app.get(EventConsumer);
    redis = bed.app.get(REDIS);
    queueConnection = createQueueConnection(bed.env['REDIS_URL'] as string);
    pushQueue = new Queue(PUSH_QUEUE, { connection: queueConnection, prefix: bed.env.KEY_PREFIX });
  });

  afterAll(async () => {
    await pushQueue?.close();
    await queueConnection?.quit();
    await bed?.close();
    await standIn.stop();
  });

  interface Member extends SignedIn {
    name: string;
    device: Browser;
  }

  /** A member with a live session, a known name and one subscribed device. */
  async function member(name: string): Promise<Member> {
    const session = await bed.signIn();
    const device = new Browser(standIn);
    const res = await bed.call('POST', '/api/notifications/subscribe', {
      token: session.token,
      body: device.subscription(),
    });
    expect(res.status).toBe(201);
    await deliver('profile.updated', aProfile(session.userId, name));
    return { ...session, name, device };
  }

  /** Hands the event to the service's consumer; answers its id. */
  async function deliver<N extends EventName>(
    name: N,
    payload: EventPayloads[N],
    producer: ServiceName = SERVICES.matching,
  ): Promise<string> {
    const envelope = eventEnvelope(producer, name, payload);
    expect(await consumer.apply(envelope)).toBe('handled');
    return envelope.id;
  }

  /** The pushes an event queued (any state): none means it was decided against, not just late. */
  async function pushJobsOf(eventId: string): Promise<number> {
    const jobs = await pushQueue.getJobs([
      'waiting',
      'active',
      'delayed',
      'completed',
      'failed',
      'prioritized',
    ]);
    return jobs.filter((j) => j?.id?.startsWith(`send.${eventId}.`)).length;
  }

  async function setPreference(m: Member, key: NotificationPreferenceKey, value: boolean) {
    expect(
      (await bed.call('PATCH', '/api/notifications/preferences', { token: m.token, body: { [key]: value } }))
        .status,
    ).toBe(200);
  }

  const pushesOf = (m: Member, n: number, what: string): Promise<PushPayload[]> =>
    waitFor(
      async () => {
        const got = m.device.pushes();
        return got.length >= n ? got : null;
      },
      { what: `${n} push(es) for ${m.name}: ${what}` },
    );

  const like = (liker: Member, liked: Member): Promise<string> =>
    deliver('like.created', {
      likerId: liker.userId,
      likedId: liked.userId,
      matched: false,
      createdAt: new Date().toISOString(),
    });
  const match = (a: Member, b: Member): Promise<string> =>
    deliver('match.created', {
      matchId: randomUUID(),
      userIds: [a.userId, b.userId].sort() as [string, string],
      createdAt: new Date().toISOString(),
    });
  const message = (from: Member, to: Member, seq = 1) =>
    deliver(
      'message.sent',
      {
        messageId: randomUUID(),
        conversationId: randomUUID(),
        senderId: from.userId,
        recipientId: to.userId,
        seq,
        length: 12,
        first: seq === 1,
        sentAt: new Date().toISOString(),
      },
      SERVICES.chat,
    );

  it('pushes a match to both members, encrypted for each device (RFC 8291) with VAPID, and the browser decrypts it', async () => {
    const [ana, ben] = await Promise.all([member('Ana'), member('Ben')]);
    const matchEvent = await match(ana, ben);
    const [toAna] = await pushesOf(ana, 1, 'match');
    const [toBen] = await pushesOf(ben, 1, 'match');
    expect(await pushJobsOf(matchEvent)).toBe(2);
    expect(toAna).toEqual({
      kind: 'new_match',
      title: "It's a Match!",
      body: 'You and Ben liked each other.',
      url: `/chat/${ben.userId}`,
      tag: `match:${ben.userId}`,
      count: 1,
      sentAt: expect.any(String),
    });
    expect(toBen).toMatchObject({ body: 'You and Ana liked each other.', url: `/chat/${ana.userId}` });
    const [request] = standIn.receivedBy(ana.device);
    expect(request?.headers['content-encoding']).toBe('aes128gcm');
    expect(request?.headers['authorization']).toMatch(new RegExp(`^vapid t=.+, k=${vapid.publicKey}$`));
    expect(Number(request?.headers['ttl'])).toBeGreaterThan(0);
    // The ciphertext carries no text of the payload.
    expect(request?.body.toString('latin1')).not.toContain('Ben');
    await waitFor(
      async () => {
        const rows = await bed.dataSource.query<{ last_used_at: Date | null }[]>(
          'SELECT last_used_at FROM push_subscription WHERE user_id = $1',
          [ana.userId],
        );
        return rows[0]?.last_used_at ?? null;
      },
      { what: 'last used time' },
    );
  });

  it('tells a like without naming the liker, and nothing once the switch is off (a later match arrives alone)', async () => {
    const [cleo, dan, eve] = await Promise.all([member('Cleo'), member('Dan'), member('Eve')]);
    await like(dan, cleo);
    const [liked] = await pushesOf(cleo, 1, 'like');
    expect(liked).toMatchObject({ kind: 'new_like', title: 'Someone likes you', url: '/discover', count: 1 });
    expect(JSON.stringify(liked)).not.toContain('Dan');

    await setPreference(cleo, 'newLikes', false);
    const mutedLike = await like(eve, cleo);
    await match(cleo, dan);
    const pushes = await pushesOf(cleo, 2, 'match after the muted like');
    expect(pushes.map((p) => p.kind)).toEqual(['new_like', 'new_match']);
    expect(await pushJobsOf(mutedLike)).toBe(0);
  });

  it('collapses a burst of messages into one push per conversation with the count', async () => {
    const [fay, gus] = await Promise.all([member('Fay'), member('Gus')]);
    await message(gus, fay, 1);
    await message(gus, fay, 2);
    await message(gus, fay, 3);
    const [burst] = await pushesOf(fay, 1, 'the burst');
    expect(burst).toEqual({
      kind: 'new_message',
      title: 'New message from Gus',
      body: '3 new messages',
      url: `/chat/${gus.userId}`,
      tag: `chat:${gus.userId}`,
      count: 3,
      sentAt: expect.any(String),
    });
    // A message after the window: its own push, same tag (it replaces the other on the device).
    await message(gus, fay, 4);
    const pushes = await pushesOf(fay, 2, 'the next message');
    expect(pushes[1]).toMatchObject({
      count: 1,
      tag: `chat:${gus.userId}`,
      body: 'Open the chat to read it.',
    });
    expect(pushes).toHaveLength(2);
  });

  it('pushes no message to a recipient with a connected socket', async () => {
    const [hal, ivy] = await Promise.all([member('Hal'), member('Ivy')]);
    const instance = `gw-${randomUUID()}`;
    const prefix = bed.env['KEY_PREFIX'] as string;
    await redis.set(presenceInstanceKey(prefix, instance), '1', 'PX', 60_000);
    await redis.hset(presenceUserKey(prefix, hal.userId), presenceField(instance, 'socket-1'), instance);

    await message(ivy, hal, 1);
    const bursts = bed.app.get(PushBursts);
    expect(await bursts.isOpen(hal.userId, ivy.userId)).toBe(true);
    await waitFor(async () => !(await bursts.isOpen(hal.userId, ivy.userId)), { what: 'the burst to end' });

    // Hal goes offline: the next message is pushed, and it is the only one.
    await redis.del(presenceUserKey(prefix, hal.userId));
    await message(ivy, hal, 2);
    const pushes = await pushesOf(hal, 1, 'the message while offline');
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ kind: 'new_message', count: 1, title: 'New message from Ivy' });
  });

  it('pushes nothing between a blocked pair, and again after the unblock', async () => {
    const [jo, kim, lee] = await Promise.all([member('Jo'), member('Kim'), member('Lee')]);
    const pairId = [jo.userId, kim.userId].sort().join(':');
    const userIds = [jo.userId, kim.userId].sort() as [string, string];
    await deliver(
      'user.blocked',
      {
        pairId,
        userIds,
        blockedBy: [jo.userId],
        blockerId: jo.userId,
        blockedId: kim.userId,
        endedMatchId: null,
        blockedAt: new Date().toISOString(),
      },
      SERVICES.safety,
    );
    const blockedLike = await like(kim, jo);
    await message(kim, jo, 1);
    const blockedMatch = await match(jo, kim);
    await waitFor(async () => !(await bed.app.get(PushBursts).isOpen(jo.userId, kim.userId)), {
      what: 'the burst to end',
    });
    await like(lee, jo);
    const pushes = await pushesOf(jo, 1, "Lee's like");
    expect(kim.device.pushes()).toEqual([]);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.kind).toBe('new_like');
    expect(await pushJobsOf(blockedLike)).toBe(0);
    expect(await pushJobsOf(blockedMatch)).toBe(0);

    await deliver(
      'user.unblocked',
      {
        pairId,
        userIds,
        blockedBy: [],
        blockerId: jo.userId,
        blockedId: kim.userId,
        unblockedAt: new Date().toISOString(),
      },
      SERVICES.safety,
    );
    await message(kim, jo, 2);
    const after = await pushesOf(jo, 2, 'a message after the unblock');
    expect(after[1]).toMatchObject({ kind: 'new_message', title: 'New message from Kim' });
  });

  /** auth-service's suspension events on the member's `user` aggregate, with that aggregate's version. */
  async function suspension(m: Member, suspended: boolean, version: number) {
    const envelope = suspended
      ? eventEnvelope(SERVICES.auth, 'user.suspended', {
          userId: m.userId,
          suspended: true,
          reason: 'Spam',
          suspendedAt: new Date().toISOString(),
        })
      : eventEnvelope(SERVICES.auth, 'user.unsuspended', {
          userId: m.userId,
          suspended: false,
          unsuspendedAt: new Date().toISOString(),
        });
    return consumer.apply({
      ...envelope,
      aggregateType: 'user',
      aggregateId: m.userId,
      aggregateVersion: version,
    });
  }

  it('pushes nothing to a suspended member nor about one (issue 13), and again after the unsuspend', async () => {
    const [max, ned, oli] = await Promise.all([member('Max'), member('Ned'), member('Oli')]);
    expect(await suspension(ned, true, 1)).toBe('handled');
    // To Ned: a like, a match, a message. About Ned: his like of Max, his message to Max.
    const likeToNed = await like(oli, ned);
    const likeFromNed = await like(ned, max);
    const matchWithNed = await match(max, ned);
    await message(oli, ned, 1);
    await message(ned, max, 1);
    const bursts = bed.app.get(PushBursts);
    await waitFor(
      async () =>
        !(await bursts.isOpen(ned.userId, oli.userId)) && !(await bursts.isOpen(max.userId, ned.userId)),
      { what: 'the bursts to end' },
    );
    // A marker: Oli's like reaches Max, so anything queued before it would have been sent too.
    await like(oli, max);
    const pushes = await pushesOf(max, 1, "Oli's like");
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.kind).toBe('new_like');
    expect(ned.device.pushes()).toEqual([]);
    for (const event of [likeToNed, likeFromNed, matchWithNed]) expect(await pushJobsOf(event)).toBe(0);

    // A late suspend older than the unsuspend is skipped: pushes flow again both ways.
    expect(await suspension(ned, false, 3)).toBe('handled');
    expect(await suspension(ned, true, 2)).toBe('stale');
    await like(oli, ned);
    expect((await pushesOf(ned, 1, 'a like after the unsuspend'))[0]?.kind).toBe('new_like');
    await message(ned, max, 2);
    const after = await pushesOf(max, 2, "Ned's message after the unsuspend");
    expect(after[1]).toMatchObject({ kind: 'new_message', title: 'New message from Ned' });
  });

  it('tells no match that a newer pair event had already ended (pair versions, ADR 0014)', async () => {
    const [vic, wes] = await Promise.all([member('Vic'), member('Wes')]);
    const userIds = [vic.userId, wes.userId].sort() as [string, string];
    const pairId = userIds.join(':');
    const unmatch = {
      ...eventEnvelope(SERVICES.safety, 'match.ended', {
        pairId,
        userIds,
        blockedBy: [],
        matchId: randomUUID(),
        endedBy: vic.userId,
        reason: 'unmatch' as const,
        endedAt: new Date().toISOString(),
      }),
      aggregateType: 'pair' as const,
      aggregateId: pairId,
      aggregateVersion: 2,
    };
    expect(await consumer.apply(unmatch)).toBe('handled');
    const matchAt = (pairVersion: number) =>
      deliver('match.created', {
        matchId: randomUUID(),
        userIds,
        createdAt: new Date().toISOString(),
        pairVersion,
      });
    const stale = await matchAt(1);
    await matchAt(2);
    await pushesOf(vic, 1, 'the live match');
    await pushesOf(wes, 1, 'the live match');
    expect(await pushJobsOf(stale)).toBe(0);
    expect(vic.device.pushes()).toHaveLength(1);
  });

  it('names nobody with private previews on', async () => {
    const [max, nia] = await Promise.all([member('Max'), member('Nia')]);
    await setPreference(max, 'privatePreviews', true);
    await message(nia, max, 1);
    await match(max, nia);
    const pushes = await pushesOf(max, 2, 'message and match');
    for (const p of pushes) expect(JSON.stringify(p)).not.toContain('Nia');
    expect(pushes.find((p) => p.kind === 'new_message')).toMatchObject({ title: 'New message', count: 1 });
    expect(pushes.find((p) => p.kind === 'new_match')).toMatchObject({
      title: "It's a Match!",
      body: 'You have a new match. Say hello!',
    });
  });

  it('removes a subscription the push service says is gone (410), and retries other failures', async () => {
    const [ola, pat] = await Promise.all([member('Ola'), member('Pat')]);
    standIn.statusOf.set(ola.device.path, 410);
    await like(pat, ola);
    await waitFor(
      async () => {
        const rows = await bed.dataSource.query('SELECT 1 FROM push_subscription WHERE user_id = $1', [
          ola.userId,
        ]);
        return rows.length === 0;
      },
      { what: 'the expired subscription to be removed' },
    );
    expect(standIn.receivedBy(ola.device)).toHaveLength(1);

    // A 500 is retried (backoff) until the push service takes it.
    standIn.statusOf.set(pat.device.path, 500);
    await like(ola, pat);
    await waitFor(async () => standIn.receivedBy(pat.device).length >= 2, { what: 'a retry' });
    standIn.statusOf.delete(pat.device.path);
    await waitFor(
      async () => {
        const rows = await bed.dataSource.query<{ last_used_at: Date | null }[]>(
          'SELECT last_used_at FROM push_subscription WHERE user_id = $1',
          [pat.userId],
        );
        return rows[0]?.last_used_at ?? null;
      },
      { what: 'the retried push to be taken' },
    );
    expect(pat.device.pushes().every((p) => p.kind === 'new_like')).toBe(true);
  });

  it('thanks a reporter (safety alerts), unless they switched safety alerts off', async () => {
    const [quin, rae, sam] = await Promise.all([member('Quin'), member('Rae'), member('Sam')]);
    const report = (reporter: Member, reported: Member) =>
      deliver(
        'report.created',
        {
          reportId: randomUUID(),
          reporterId: reporter.userId,
          reportedId: reported.userId,
          reason: 'spam',
          hasDetails: false,
          createdAt: new Date().toISOString(),
        },
        SERVICES.safety,
      );
    await report(quin, rae);
    const [thanks] = await pushesOf(quin, 1, 'the report receipt');
    expect(thanks).toMatchObject({
      kind: 'safety',
      title: 'Report received',
      body: 'Thanks for your report. Our team will review it.',
      url: '/safety',
    });
    expect(rae.device.pushes()).toEqual([]);

    await setPreference(sam, 'safetyAlerts', false);
    const mutedReport = await report(sam, rae);
    await like(rae, sam);
    const pushes = await pushesOf(sam, 1, 'a like after the muted receipt');
    expect(pushes.map((p) => p.kind)).toEqual(['new_like']);
    expect(await pushJobsOf(mutedReport)).toBe(0);
  });

  it("tells the owner of a rejected photo why (admin actions), nothing for other outcomes, when muted or suspended", async () => {
    const [ada, bo] = await Promise.all([member('Ada'), member('Bo')]);
    const moderated = (m: Member, outcome: 'scored' | 'approved' | 'rejected', reason: string | null = null) =>
      deliver(
        'photo.moderated',
        {
          photoId: randomUUID(),
          userId: m.userId,
          outcome,
          riskScore: 0.9,
          hidden: outcome !== 'approved',
          reason,
          at: new Date().toISOString(),
        },
        SERVICES.profile,
      );
    const scored = await moderated(ada, 'scored');
    const approved = await moderated(ada, 'approved');
    await moderated(ada, 'rejected', 'Nudity is not allowed');
    const [told] = await pushesOf(ada, 1, 'the rejection');
    expect(told).toMatchObject({
      kind: 'admin',
      title: 'One of your photos was removed',
      body: 'Reason: Nudity is not allowed',
      url: '/profile',
    });
    expect(await pushJobsOf(scored)).toBe(0);
    expect(await pushJobsOf(approved)).toBe(0);
    expect(bo.device.pushes()).toEqual([]);

    await setPreference(bo, 'adminActions', false);
    const muted = await moderated(bo, 'rejected', 'Spam');
    expect(await pushJobsOf(muted)).toBe(0);
    await setPreference(bo, 'adminActions', true);
    expect(await suspension(bo, true, 1)).toBe('handled');
    const whileSuspended = await moderated(bo, 'rejected', 'Spam');
    expect(await pushJobsOf(whileSuspended)).toBe(0);
    expect(await suspension(bo, false, 2)).toBe('handled');
    await moderated(bo, 'rejected', 'Spam');
    const pushes = await pushesOf(bo, 1, 'a rejection after the unsuspend');
    expect(pushes.map((p) => p.body)).toEqual(['Reason: Spam']);
  });

  it('erases the member on user.deleted: devices, preferences, name, pairs; nothing is pushed to them after', async () => {
    const [tess, uma] = await Promise.all([member('Tess'), member('Uma')]);
    await setPreference(tess, 'newLikes', false);
    const userIds = [tess.userId, uma.userId].sort() as [string, string];
    await deliver(
      'user.blocked',
      {
        pairId: userIds.join(':'),
        userIds,
        blockedBy: [uma.userId],
        blockerId: uma.userId,
        blockedId: tess.userId,
        endedMatchId: null,
        blockedAt: new Date().toISOString(),
      },
      SERVICES.safety,
    );
    const pushKeys = () => redis.keys(`${bed.env['KEY_PREFIX'] as string}:push:*${tess.userId}*`);
    expect(await pushKeys()).toHaveLength(1);
    await deliver(
      'user.deleted',
      { userId: tess.userId, deletedAt: new Date().toISOString() },
      SERVICES.auth,
    );
    for (const [table, column] of [
      ['push_subscription', 'user_id'],
      ['notification_preferences', 'user_id'],
      ['notification_member', 'user_id'],
      ['notification_pair', 'member_a'],
      ['notification_pair', 'member_b'],
      ['kit_pair', 'member_a'],
      ['kit_pair', 'member_b'],
      ['kit_member_suspension', 'user_id'],
    ]) {
      expect([
        table,
        column,
        await bed.dataSource.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [tess.userId]),
      ]).toEqual([table, column, []]);
    }
    // No key of this service's keeps her id (her subscribe counter went too; her sessions are
    // auth-service's to end).
    expect(await pushKeys()).toEqual([]);
    // Later events about her are dropped by the kit's consumer.
    expect(
      await consumer.apply(
        eventEnvelope(SERVICES.matching, 'like.created', {
          likerId: uma.userId,
          likedId: tess.userId,
          matched: false,
          createdAt: new Date().toISOString(),
        }),
      ),
    ).toBe('erased');

    // A request of hers that passed its session check before the deletion ended her sessions
    // writes nothing back (her session is still alive in this test bed: auth-service ends it).
    const patch = await bed.call('PATCH', '/api/notifications/preferences', { token: tess.token, body: { newLikes: true } });
    expect(patch).toMatchObject({ status: 401, body: { error: AuthMessages.sessionExpired, code: AuthErrorCode.AccountDeleted } });
    const again = await bed.call('POST', '/api/notifications/subscribe', { token: tess.token, body: new Browser(standIn).subscription() });
    expect(again).toMatchObject({ status: 401, body: { error: AuthMessages.sessionExpired, code: AuthErrorCode.AccountDeleted } });
    expect(await columnsHolding(bed.dataSource, tess.userId)).toEqual([]);
  });

  it('ends a message burst without a push when its sender was deleted meanwhile', async () => {
    const [vic, wyn] = await Promise.all([member('Vic'), member('Wyn')]);
    await message(vic, wyn, 1);
    await deliver('user.deleted', { userId: vic.userId, deletedAt: new Date().toISOString() }, SERVICES.auth);
    // Wyn's next push (a like from another member) arrives; the burst about Vic never does.
    const xan = await member('Xan');
    await like(xan, wyn);
    await pushesOf(wyn, 1, 'the like');
    // The burst's end job has run (nothing left delayed, waiting or active), and pushed nothing.
    await waitFor(
      async () => {
        const counts = await pushQueue.getJobCounts('delayed', 'waiting', 'active');
        return counts.delayed + counts.waiting + counts.active === 0 ? true : null;
      },
      { what: 'the burst window to end' },
    );
    expect(wyn.device.pushes().map((p) => p.kind)).toEqual(['new_like']);
  });
});
