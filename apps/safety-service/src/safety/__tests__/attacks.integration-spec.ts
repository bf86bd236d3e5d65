import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { QueueName, SafetyMessages, type BlockedUserDto, type ReportResultDto } from '@mate/contracts';
import { NulTextMessages } from '@mate/server-kit';
import { call, waitFor } from '@mate/server-kit/testing';
import { aProfile, startSafetyTestBed, type SafetyMember, type SafetyTestBed } from '../../__tests__/safety-test-bed';
import { ReportsService } from '../reports.service';

/**
 * The routes as an attacker uses them (review of issue 10): hostile bodies, forged and re-spelled
 * ids, probing across a block, a poisoned snapshot. Every refusal is a 4xx `{ error }`, never a
 * 500 or a 503, and nothing is stored by a refused request.
 */
describe('safety under attack (real PostgreSQL and Redis; chat played by a real HTTP stub)', () => {
  let t: SafetyTestBed;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_attacks', { env: { SAFETY_CHAT_TIMEOUT_MS: '400' } });
  }, 30_000);

  afterAll(async () => {
    await t?.close();
  }, 30_000);

  const raw = (member: SafetyMember, method: string, path: string, body: string) =>
    call(t.bed.url, method, path, { token: member.token, raw: body });

  const countRows = async (table: 'block' | 'report', memberId: string): Promise<number> => {
    const column = table === 'block' ? 'blocker_id' : 'reporter_id';
    const [row] = await t.bed.dataSource.query(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
      [memberId],
    );
    return row.n;
  };

  it('refuses non-text reasons and details (null, numbers, arrays, objects) with a 400, storing nothing', async () => {
    const ann = await t.member();
    const bob = await t.member();
    for (const reason of [null, 42, true, ['rude'], { toString: 'rude' }]) {
      const res = await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`, { reason });
      expect({ reason, status: res.status, hasError: typeof res.body.error === 'string' }).toEqual({
        reason,
        status: 400,
        hasError: true,
      });
    }
    for (const body of [
      { details: null },
      { details: 7 },
      { details: ['a'] },
      { details: { a: 1 } },
      { reason: null },
      { reason: ['spam'] },
      { reason: 'SPAM' },
      { reason: 'spam ' },
    ]) {
      const res = await t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, body);
      expect({ body, status: res.status, hasError: typeof res.body.error === 'string' }).toEqual({
        body,
        status: 400,
        hasError: true,
      });
    }
    expect(await countRows('block', ann.userId)).toBe(0);
    expect(await countRows('report', ann.userId)).toBe(0);
  });

  it('refuses bodies that are not one JSON object, and prototype keys, with a 400', async () => {
    const ann = await t.member();
    const bob = await t.member();
    for (const body of [
      '[]',
      '[{"reason":"spam"}]',
      '"spam"',
      '42',
      'null',
      '{"__proto__":{"reason":"spam"}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"reason":"spam"',
    ]) {
      for (const path of [
        `/api/safety/block/${bob.userId}`,
        `/api/safety/report/${bob.userId}`,
        `/api/safety/unmatch/${bob.userId}`,
      ]) {
        const res = await raw(ann, 'POST', path, body);
        expect({ body, path, status: res.status }).toEqual({
          body,
          path,
          status: res.status >= 400 && res.status < 500 ? res.status : 'not 4xx',
        });
      }
    }
    expect(await countRows('block', ann.userId)).toBe(0);
    expect(await countRows('report', ann.userId)).toBe(0);
  });

  it('keeps hostile text inert: controls and bidi overrides stripped, NUL refused; invisible-only details kept as none; raw size capped', async () => {
    const ann = await t.member();
    const bob = await t.member();
    const carl = await t.member();
    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, {
      details: '\u0001evil\u202Etxt.exe\u0007\u001b[31m',
    });
    expect(res.status).toBe(201);
    const [row] = await t.bed.dataSource.query('SELECT details FROM report WHERE id = $1', [res.body.id]);
    expect(row.details).toBe('eviltxt.exe[31m');

    const blank = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${carl.userId}`, {
      details: '\u200B\u202E\u0001 ',
    });
    expect(blank.status).toBe(201);
    const [blankRow] = await t.bed.dataSource.query('SELECT details FROM report WHERE id = $1', [
      blank.body.id,
    ]);
    expect(blankRow.details).toBeNull();

    // NUL is input PostgreSQL cannot hold: a 400 naming the field, nothing written (issue 24 item 3).
    expect(await t.api(ann, 'POST', `/api/safety/report/${carl.userId}`, { details: 'x\u0000y' })).toMatchObject({
      status: 400,
      body: { error: NulTextMessages.bodyField('details') },
    });
    const block = await t.api(ann, 'POST', `/api/safety/block/${carl.userId}`, { reason: 'x\u0000y' });
    expect(block).toMatchObject({ status: 400, body: { error: NulTextMessages.bodyField('reason') } });

    const dave = await t.member();
    expect(
      await t.api(ann, 'POST', `/api/safety/report/${dave.userId}`, { details: 'a'.repeat(4_001) }),
    ).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.detailsTooLong },
    });
  });

  it('treats upper-case and lower-case spellings of one id as one member: one block, one report a day, no self-block', async () => {
    const ann = await t.member();
    const bob = await t.member();
    const upper = bob.userId.toUpperCase();
    const [first, second] = await Promise.all([
      t.api<BlockedUserDto>(ann, 'POST', `/api/safety/block/${upper}`),
      t.api<BlockedUserDto>(ann, 'POST', `/api/safety/block/${bob.userId}`),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.id).toBe(second.body.id);
    expect(first.body.blockedId).toBe(bob.userId);
    expect(await countRows('block', ann.userId)).toBe(1);

    const reports = await Promise.all([
      t.api(ann, 'POST', `/api/safety/report/${upper}`, { reason: 'spam' }),
      t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'harassment' }),
      t.api(ann, 'POST', `/api/safety/report/${bob.userId}`, {}),
    ]);
    expect(reports.map((r) => r.status).sort()).toEqual([201, 409, 409]);

    expect(await t.api(ann, 'POST', `/api/safety/block/${ann.userId.toUpperCase()}`)).toMatchObject({
      status: 400,
    });
    expect(await t.api(ann, 'POST', `/api/safety/report/${ann.userId.toUpperCase()}`)).toMatchObject({
      status: 400,
    });
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${ann.userId.toUpperCase()}`)).toMatchObject({
      status: 400,
    });
  });

  it('refuses ids that only look like a UUID, and path tricks, without a 5xx', async () => {
    const ann = await t.member();
    const id = randomUUID();
    for (const path of [
      `/api/safety/block/{${id}}`,
      `/api/safety/block/urn:uuid:${id}`,
      `/api/safety/block/${id}%00`,
      `/api/safety/block/${id.replace(/-/g, '')}`,
      `/api/safety/block/%2e%2e%2f${id}`,
      `/api/safety/block/${id}%2f..%2finternal`,
      `/api/safety/report/..%2F..%2Finternal%2Fchat%2Fpairs%2F${id}%2F${id}%2Fmessages`,
    ]) {
      const res = await t.api(ann, 'POST', path);
      expect({ path, status: res.status }).toEqual({ path, status: res.status === 404 ? 404 : 400 });
    }
  });

  it('the block answer is the same whether or not the other member blocked first (issue 24 item 4)', async () => {
    // Bob blocks Ann after she blocked him; Dan blocks Cat, who never blocked anyone.
    const ann = await t.member({ name: 'Ann', photo: 'https://cdn.example/ann.jpg' });
    const bob = await t.member({ name: 'Bob' });
    const cat = await t.member({ name: 'Cat', photo: 'https://cdn.example/cat.jpg' });
    const dan = await t.member({ name: 'Dan' });
    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);
    const afterTheirs = await t.api<BlockedUserDto>(bob, 'POST', `/api/safety/block/${ann.userId}`);
    const alone = await t.api<BlockedUserDto>(dan, 'POST', `/api/safety/block/${cat.userId}`);
    const shape = (b: BlockedUserDto, name: string) => ({ ...b, id: 'id', blockedId: 'member', createdAt: 'time', name: b.name === name ? 'theirs' : b.name, photo: b.photo ? 'a photo' : null });
    expect([afterTheirs.status, shape(afterTheirs.body, 'Ann')]).toEqual([alone.status, shape(alone.body, 'Cat')]);
    expect(alone.body).toMatchObject({ name: 'Cat', photo: 'https://cdn.example/cat.jpg' });
    const lists = [await t.api<BlockedUserDto[]>(bob, 'GET', '/api/safety/blocked'), await t.api<BlockedUserDto[]>(dan, 'GET', '/api/safety/blocked')];
    expect(lists.map((l) => l.body.map((b) => shape(b, b.blockedId === ann.userId ? 'Ann' : 'Cat')))).toEqual([
      [shape(alone.body, 'Cat')],
      [shape(alone.body, 'Cat')],
    ]);
  });

  it('a blocked member probing the blocker learns nothing profile-service would not tell them', async () => {
    const ann = await t.member({ name: 'Ann', photo: 'https://cdn.example/ann.jpg' });
    const bob = await t.member({ name: 'Bob' });
    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);

    // Bob's own list never shows Ann; Ann's list is not Bob's to read.
    expect(await t.api(bob, 'GET', '/api/safety/blocked')).toEqual({ status: 200, body: [] });
    // Unblocking or unmatching someone who blocked you: the same answers as for a stranger.
    const stranger = await t.member();
    expect((await t.api(bob, 'DELETE', `/api/safety/block/${ann.userId}`)).body).toEqual(
      (await t.api(bob, 'DELETE', `/api/safety/block/${stranger.userId}`)).body,
    );
    const unmatchAnn = await t.api(bob, 'POST', `/api/safety/unmatch/${ann.userId}`);
    const unmatchStranger = await t.api(bob, 'POST', `/api/safety/unmatch/${stranger.userId}`);
    expect([unmatchAnn.status, unmatchAnn.body.error]).toEqual([
      unmatchStranger.status,
      unmatchStranger.body.error,
    ]);

    // Blocking back: the block is kept, and the answer is what any block answers (issue 24 item 4):
    // Ann as the pair showed her when it became blocked, so it does not tell Bob that she blocked
    // him (a null name beside her profile's 404 did, where a suspended member showed a name).
    const back = await t.api<BlockedUserDto>(bob, 'POST', `/api/safety/block/${ann.userId}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ blockedId: ann.userId, name: 'Ann', photo: 'https://cdn.example/ann.jpg' });
    // Ann's profile changes while they block each other: nothing of it reaches Bob.
    await t.deliver('profile.updated', { ...aProfile(ann.userId, 'Annabel', 'https://cdn.example/annabel.jpg') }, 2);
    const list = await t.api<BlockedUserDto[]>(bob, 'GET', '/api/safety/blocked');
    expect(list.body).toEqual([expect.objectContaining({ blockedId: ann.userId, name: 'Ann', photo: 'https://cdn.example/ann.jpg' })]);
    expect((await t.api<BlockedUserDto>(bob, 'POST', `/api/safety/block/${ann.userId}`)).body).toMatchObject({ name: 'Ann' });
    // Ann's own list shows Bob (he is hers to see: she chose the block; he does not hide from her).
    const annList = await t.api<BlockedUserDto[]>(ann, 'GET', '/api/safety/blocked');
    expect(annList.body).toEqual([expect.objectContaining({ blockedId: bob.userId, name: 'Bob' })]);
    // Ann lifting her block changes nothing in Bob's list either.
    expect((await t.api(ann, 'DELETE', `/api/safety/block/${bob.userId}`)).body).toEqual({ unblocked: true });
    expect((await t.api<BlockedUserDto[]>(bob, 'GET', '/api/safety/blocked')).body).toEqual(list.body);
  });

  it('a message jsonb cannot keep (NUL, an unpaired surrogate) does not make the pair unreportable', async () => {
    const ann = await t.member();
    const bob = await t.member();
    t.chat.say(bob, ann, 'hi\u0000there', 2);
    t.chat.say(ann, bob, 'half \uD83D emoji', 1);
    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, {
      reason: 'harassment',
    });
    expect(res.status).toBe(201);
    const [row] = await t.bed.dataSource.query('SELECT messages, messages_status FROM report WHERE id = $1', [
      res.body.id,
    ]);
    expect(row.messages_status).toBe('complete');
    expect(row.messages.map((m: { content: string }) => m.content)).toEqual([
      'hi\uFFFDthere',
      'half \uFFFD emoji',
    ]);
  });

  it('one pending report chat refuses does not hold back the sweep of every report after it', async () => {
    const [ann, bob, carl] = [await t.member(), await t.member(), await t.member()];
    t.chat.say(ann, carl, 'kept for the moderators', 3);
    t.chat.refused.add(bob.userId);
    const pending = (
      reporter: SafetyMember,
      reported: SafetyMember,
      minutesAgo: number,
    ): Promise<{ id: string }[]> =>
      t.bed.dataSource.query(
        `INSERT INTO report (id, reporter_id, reported_id, reason, created_at, messages_status)
         VALUES (gen_random_uuid(), $1, $2, 'spam', now() - make_interval(mins => $3), 'pending') RETURNING id`,
        [reporter.userId, reported.userId, minutesAgo],
      );
    // The refused one is the oldest pending: every run meets it first.
    const [[refused], [fine]] = [await pending(ann, bob, 2), await pending(ann, carl, 1)];
    try {
      await t.bed.app.get(ReportsService).sweepEvidence();
    } finally {
      t.chat.refused.clear();
    }
    const rows: { id: string; messages_status: string }[] = await t.bed.dataSource.query(
      'SELECT id, messages_status FROM report WHERE id = ANY($1::uuid[])',
      [[refused.id, fine.id]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.messages_status]))).toEqual({
      [refused.id]: 'pending',
      [fine.id]: 'complete',
    });
  });

  it("a report's own evidence job is not retried when chat refuses the call (4xx), only when chat is away", async () => {
    const [ann, bob] = [await t.member(), await t.member()];
    const [{ id }]: { id: string }[] = await t.bed.dataSource.query(
      `INSERT INTO report (id, reporter_id, reported_id, reason, created_at, messages_status)
       VALUES (gen_random_uuid(), $1, $2, 'spam', now(), 'pending') RETURNING id`,
      [ann.userId, bob.userId],
    );
    const queue = new Queue(QueueName.SafetyEvidence, { connection: { url: t.bed.env.REDIS_URL }, prefix: t.bed.env.KEY_PREFIX });
    t.chat.refused.add(bob.userId);
    try {
      const job = await queue.add('report', { reportId: id }, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
      const failed = await waitFor(
        async () => {
          const current = await queue.getJob(job.id as string);
          return (await current?.isFailed()) ? current : null;
        },
        { timeoutMs: 5_000, what: 'the job to fail' },
      );
      expect(failed?.attemptsMade).toBe(1);
      expect(failed?.failedReason).toContain('answered 400');
    } finally {
      t.chat.refused.clear();
      await queue.close();
    }
  }, 15_000);

  it('the internal route and the credential header are not reachable through safety', async () => {
    const ann = await t.member();
    const res = await call(t.bed.url, 'GET', `/internal/chat/pairs/${ann.userId}/${randomUUID()}/messages`, {
      token: ann.token,
      headers: { 'x-internal-token': 'guess' },
    });
    expect(res.status).toBe(403);
    expect(t.chat.requests.every((r) => r.trusted)).toBe(true);
  });
});
