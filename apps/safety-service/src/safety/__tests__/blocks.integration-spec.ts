import { randomUUID } from 'node:crypto';
import {
  BLOCK_ACTIONS_PER_HOUR,
  ErrorCode,
  pairIdOf,
  SafetyErrorCode,
  SafetyMessages,
  type BlockedUserDto,
  type UnblockResultDto,
  type UserBlockedPayload,
} from '@mate/contracts';
import { startSafetyTestBed, type SafetyTestBed } from '../../__tests__/safety-test-bed';

describe('blocks (real PostgreSQL and Redis)', () => {
  let t: SafetyTestBed;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_blocks');
  }, 30_000);

  afterAll(async () => {
    await t?.close();
  }, 30_000);

  const pairEvents = async (a: string, b: string) =>
    (await t.events()).filter((e) => e.aggregateId === pairIdOf(a, b)).sort((x, y) => (x.aggregateVersion ?? 0) - (y.aggregateVersion ?? 0));

  it('blocks a known member: answers the block with their name and photo, ends the match and publishes user.blocked once', async () => {
    const ann = await t.member({ name: 'Ann' });
    const bob = await t.member({ name: 'Bob', photo: 'https://cdn.example/bob.jpg' });
    const matchId = await t.match(ann, bob);

    const first = await t.api<BlockedUserDto>(ann, 'POST', `/api/safety/block/${bob.userId}`, { reason: '  rude\u0007  ' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      blockedId: bob.userId,
      name: 'Bob',
      photo: 'https://cdn.example/bob.jpg',
      createdAt: expect.any(String),
    });
    const [row] = await t.bed.dataSource.query('SELECT reason FROM block WHERE id = $1', [first.body.id]);
    expect(row.reason).toBe('rude');

    // A repeated block is the same block, and publishes nothing more.
    const again = await t.api<BlockedUserDto>(ann, 'POST', `/api/safety/block/${bob.userId.toUpperCase()}`, {});
    expect(again).toEqual(first);

    const events = await pairEvents(ann.userId, bob.userId);
    expect(events.map((e) => [e.name, e.aggregateType, e.aggregateVersion])).toEqual([['user.blocked', 'pair', 1]]);
    const [a, b] = ann.userId < bob.userId ? [ann.userId, bob.userId] : [bob.userId, ann.userId];
    expect(events[0].payload).toEqual<UserBlockedPayload>({
      pairId: `${a}:${b}`,
      userIds: [a, b],
      blockedBy: [ann.userId],
      blockerId: ann.userId,
      blockedId: bob.userId,
      endedMatchId: matchId,
      blockedAt: first.body.createdAt,
    });
    // Blocking unmatched them: there is nothing left to unmatch.
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).toMatchObject({
      status: 404,
      body: { error: SafetyMessages.notMatched, code: SafetyErrorCode.NothingToUnmatch },
    });
  });

  it('refuses self, bad ids, unknown members, unknown fields and long reasons, with nothing stored', async () => {
    const ann = await t.member();
    const unknown = await t.member({ known: false });
    expect(await t.api(ann, 'POST', `/api/safety/block/${ann.userId}`)).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.blockSelf, code: SafetyErrorCode.BlockSelf },
    });
    expect(await t.api(ann, 'POST', '/api/safety/block/not-a-uuid')).toMatchObject({
      status: 400,
      body: { error: 'userId must be a UUID' },
    });
    expect(await t.api(ann, 'POST', `/api/safety/block/${unknown.userId}`)).toMatchObject({
      status: 404,
      body: { error: SafetyMessages.memberNotFound, code: SafetyErrorCode.MemberNotFound },
    });
    const bob = await t.member();
    expect(await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`, { reason: 'x', blockedBy: ann.userId })).toMatchObject({
      status: 400,
      body: { error: 'Unknown field: blockedBy' },
    });
    expect(await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`, { reason: 'x'.repeat(501) })).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.blockReasonTooLong, code: SafetyErrorCode.TextTooLong },
    });
    expect(await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`, { reason: 42 })).toMatchObject({ status: 400 });
    expect(await t.api(null, 'POST', `/api/safety/block/${bob.userId}`)).toMatchObject({ status: 401 });
    const [{ count }] = await t.bed.dataSource.query('SELECT count(*)::int AS count FROM block WHERE blocker_id = $1', [ann.userId]);
    expect(count).toBe(0);
  });

  it('lists the blocked members newest first with name (null when unknown) and photo; only the caller’s', async () => {
    const ann = await t.member();
    const bob = await t.member({ name: 'Bob', photo: 'https://cdn.example/b.jpg' });
    const cat = await t.member({ name: null });
    const dan = await t.member({ name: 'Dan' });
    for (const other of [bob, cat, dan]) {
      expect((await t.api(ann, 'POST', `/api/safety/block/${other.userId}`)).status).toBe(200);
    }
    await t.api(dan, 'POST', `/api/safety/block/${bob.userId}`);
    const list = await t.api<BlockedUserDto[]>(ann, 'GET', '/api/safety/blocked');
    expect(list.status).toBe(200);
    expect(list.body.map((b) => [b.blockedId, b.name, b.photo])).toEqual([
      [dan.userId, 'Dan', null],
      [cat.userId, null, null],
      [bob.userId, 'Bob', 'https://cdn.example/b.jpg'],
    ]);
    expect(list.body.every((b) => !Number.isNaN(Date.parse(b.createdAt)))).toBe(true);
    // The list shows Bob as the pair showed him when it became blocked: a later profile change does
    // not reach Ann (issue 24 item 4: the list is no window on a member who is hidden from her).
    await t.deliver('profile.updated', { ...(await profileOf(bob.userId)), name: 'Robert' }, 2);
    expect((await t.api<BlockedUserDto[]>(ann, 'GET', '/api/safety/blocked')).body[2].name).toBe('Bob');
    expect((await t.api<BlockedUserDto[]>(bob, 'GET', '/api/safety/blocked')).body).toEqual([]);
  });

  it('unblocks idempotently: false without a block, true once, and the match is not restored', async () => {
    const ann = await t.member();
    const bob = await t.member();
    await t.match(ann, bob);
    expect(await t.api<UnblockResultDto>(ann, 'DELETE', `/api/safety/block/${bob.userId}`)).toEqual({ status: 200, body: { unblocked: false } });
    await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`);
    expect(await t.api<UnblockResultDto>(ann, 'DELETE', `/api/safety/block/${bob.userId}`)).toEqual({ status: 200, body: { unblocked: true } });
    expect(await t.api<UnblockResultDto>(ann, 'DELETE', `/api/safety/block/${bob.userId}`)).toEqual({ status: 200, body: { unblocked: false } });
    expect((await t.api<BlockedUserDto[]>(ann, 'GET', '/api/safety/blocked')).body).toEqual([]);
    expect((await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).status).toBe(404);
    expect((await pairEvents(ann.userId, bob.userId)).map((e) => e.name)).toEqual(['user.blocked', 'user.unblocked']);
    expect((await t.api(ann, 'DELETE', '/api/safety/block/nope')).status).toBe(400);
  });

  it('numbers the pair events 1, 2, 3 with the whole block state: A blocks B, B blocks A, A unblocks → [B]', async () => {
    const a = await t.member();
    const b = await t.member();
    await t.api(a, 'POST', `/api/safety/block/${b.userId}`);
    await t.api(b, 'POST', `/api/safety/block/${a.userId}`);
    await t.api(a, 'DELETE', `/api/safety/block/${b.userId}`);
    const events = await pairEvents(a.userId, b.userId);
    expect(events.map((e) => [e.name, e.aggregateVersion, (e.payload as { blockedBy: string[] }).blockedBy])).toEqual([
      ['user.blocked', 1, [a.userId]],
      ['user.blocked', 2, [a.userId, b.userId].sort()],
      ['user.unblocked', 3, [b.userId]],
    ]);
    expect(events[2].payload).toMatchObject({ blockerId: a.userId, blockedId: b.userId, pairId: pairIdOf(a.userId, b.userId) });
  });

  it('keeps the whole state right when both block each other at the same moment', async () => {
    const a = await t.member();
    const b = await t.member();
    const answers = await Promise.all([
      t.api(a, 'POST', `/api/safety/block/${b.userId}`),
      t.api(b, 'POST', `/api/safety/block/${a.userId}`),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const events = await pairEvents(a.userId, b.userId);
    expect(events.map((e) => e.aggregateVersion)).toEqual([1, 2]);
    expect((events[1].payload as { blockedBy: string[] }).blockedBy).toEqual([a.userId, b.userId].sort());
    const [pair] = await t.bed.dataSource.query('SELECT blocked_by FROM pair WHERE pair_id = $1', [pairIdOf(a.userId, b.userId)]);
    expect(pair.blocked_by).toEqual([a.userId, b.userId].sort());
  });

  it('writes the block, the pair state and the event in one transaction: a failing outbox leaves nothing', async () => {
    const a = await t.member();
    const b = await t.member();
    const q = (sql: string) => t.bed.dataSource.query(sql);
    await q(`CREATE FUNCTION refuse_user_blocked() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW.name = 'user.blocked' THEN RAISE EXCEPTION 'outbox refused in a test'; END IF; RETURN NEW; END $$`);
    await q('CREATE TRIGGER refuse_user_blocked BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_user_blocked()');
    try {
      const res = await t.api(a, 'POST', `/api/safety/block/${b.userId}`);
      // Not a refusal: 503, which the app may retry; the cause stays in the log.
      expect(res).toMatchObject({ status: 503, body: { code: ErrorCode.ServiceUnavailable } });
      expect(JSON.stringify(res.body)).not.toContain('outbox refused');
    } finally {
      await q('DROP TRIGGER refuse_user_blocked ON outbox');
      await q('DROP FUNCTION refuse_user_blocked()');
    }
    expect(await t.bed.dataSource.query('SELECT 1 FROM block WHERE blocker_id = $1', [a.userId])).toEqual([]);
    const pairs = await t.bed.dataSource.query('SELECT blocked_by FROM pair WHERE pair_id = $1', [pairIdOf(a.userId, b.userId)]);
    expect(pairs.every((p: { blocked_by: string[] }) => p.blocked_by.length === 0)).toBe(true);
    expect(await pairEvents(a.userId, b.userId)).toEqual([]);
    // And the next try goes through whole.
    expect((await t.api(a, 'POST', `/api/safety/block/${b.userId}`)).status).toBe(200);
    expect((await pairEvents(a.userId, b.userId)).map((e) => e.aggregateVersion)).toEqual([1]);
  });

  it(`limits blocks and unblocks to ${BLOCK_ACTIONS_PER_HOUR} an hour per member (429, Retry-After)`, async () => {
    const a = await t.member();
    const b = await t.member();
    for (let i = 0; i < BLOCK_ACTIONS_PER_HOUR; i++) {
      expect((await t.api(a, 'DELETE', `/api/safety/block/${randomUUID()}`)).status).toBe(200);
    }
    expect(await t.api(a, 'POST', `/api/safety/block/${b.userId}`)).toMatchObject({
      status: 429,
      body: { error: SafetyMessages.tooManyBlocks, code: ErrorCode.RateLimited },
    });
    // Another member is not affected.
    expect((await t.api(b, 'POST', `/api/safety/block/${a.userId}`)).status).toBe(200);
  });

  async function profileOf(userId: string) {
    const [row] = await t.bed.dataSource.query('SELECT profile FROM safety_member WHERE user_id = $1', [userId]);
    return { ...row.profile, latitude: null, longitude: null };
  }
});
