import { randomUUID } from 'node:crypto';
import {
  MatchingMessages,
  pairIdOf,
  type LikeResultDto,
  type MatchDto,
  type MatchStatsDto,
} from '@mate/contracts';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

jest.setTimeout(60_000);

/**
 * Safety's pair events in matching (issue 10): user.blocked, user.unblocked and match.ended, each
 * with the pair's whole state, through the real consumer on real PostgreSQL and Redis.
 */
describe('blocks, unblocks and unmatches (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) =>
    bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });
  const rewind = (member: TestMember) => bed.call('POST', '/api/matches/rewind', { token: member.token });
  const myMatches = async (member: TestMember) =>
    (await bed.call<MatchDto[]>('GET', '/api/matches/my-matches', { token: member.token })).body;
  const stats = async (member: TestMember) =>
    (await bed.call<MatchStatsDto>('GET', '/api/matches/stats', { token: member.token })).body;
  const matchCreatedFor = async (a: TestMember, b: TestMember): Promise<number> => {
    const [row]: { n: number }[] = await bed.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE name = 'match.created'
         AND body->'payload'->'userIds' @> to_jsonb(ARRAY[$1::text, $2::text])`,
      [a.userId, b.userId],
    );
    return row.n;
  };
  /** Both members see each other in their suggestions (true) or neither sees the other (false). */
  const seeEachOther = async (a: TestMember, b: TestMember) => {
    const [toA, toB] = await Promise.all([bed.suggestedTo(a), bed.suggestedTo(b)]);
    return { aSeesB: toA.includes(b.userId), bSeesA: toB.includes(a.userId) };
  };
  /** Two members of a place of their own (they fit each other) and a third who fits both. */
  const trio = async () => {
    const place = bed.place();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => bed.member(place)));
    return { a, b, c };
  };
  /** Two matched members and the match id. */
  const matched = async () => {
    const { a, b, c } = await trio();
    await like(a, b);
    const made = await like(b, a);
    expect(made.body).toEqual({ matched: true, matchId: expect.any(String) });
    return { a, b, c, matchId: made.body.matchId as string };
  };

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_blocks');
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it("keeps a blocked pair out of both members' suggestions, and no one else", async () => {
    const { a, b, c } = await trio();
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: true, bSeesA: true });
    expect(await bed.block(a, b)).toBe('handled');
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: false, bSeesA: false });
    expect(await bed.suggestedTo(a)).toContain(c.userId);
    expect(await bed.suggestedTo(b)).toContain(c.userId);
    expect(await bed.suggestedTo(c)).toEqual(expect.arrayContaining([a.userId, b.userId]));
  });

  it('refuses likes and passes between a blocked pair both ways, with the answer of any unavailable member', async () => {
    const { a, b } = await trio();
    await bed.block(b, a);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ]) {
      expect(await like(from, to)).toMatchObject({
        status: 400,
        body: { error: MatchingMessages.notSuggestible },
      });
      expect(await pass(from, to)).toMatchObject({
        status: 400,
        body: { error: MatchingMessages.notSuggestible },
      });
    }
    const swipes = await bed.dataSource.query(
      'SELECT 1 FROM swipe WHERE swiper_id = ANY ($1::uuid[]) AND target_id = ANY ($1::uuid[])',
      [[a.userId, b.userId]],
    );
    expect(swipes).toEqual([]);
    // An id in upper case is the same member.
    const upper = await bed.call('POST', `/api/matches/like/${b.userId.toUpperCase()}`, { token: a.token });
    expect(upper).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    // A member matching never heard of stays 404 whatever the block state says.
    const stranger = { userId: randomUUID(), token: '' };
    await bed.block(a, stranger);
    expect(await like(a, stranger)).toMatchObject({
      status: 404,
      body: { error: MatchingMessages.memberNotFound },
    });
    expect(await pass(a, stranger)).toMatchObject({
      status: 404,
      body: { error: MatchingMessages.memberNotFound },
    });
  });

  it('refuses a repeated like and a like after a pass the same way once the pair is blocked', async () => {
    const { a, b, c } = await trio();
    expect((await like(a, b)).body).toEqual({ matched: false });
    await pass(a, c);
    await bed.block(b, a);
    await bed.block(c, a);
    expect(await like(a, b)).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    expect(await like(a, c)).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
  });

  it('never rewinds a pass on a member of a blocked pair', async () => {
    const { a, b, c } = await trio();
    await pass(a, c);
    await pass(a, b);
    await bed.block(b, a);
    // The latest pass (on b) is skipped; the one before it comes back.
    expect(await rewind(a)).toMatchObject({ status: 200, body: { suggestion: { user: { id: c.userId } } } });
    expect(await rewind(a)).toMatchObject({ status: 404, body: { error: MatchingMessages.nothingToRewind } });
    expect(await bed.suggestedTo(a)).not.toContain(b.userId);
  });

  it("a block ends the match: gone from both members' matches and stats, the likes no longer counted", async () => {
    const { a, b, c } = await matched();
    await like(c, a);
    expect(await myMatches(a)).toEqual([expect.objectContaining({ userId: b.userId })]);
    expect(await stats(a)).toEqual({ matches: 1, likesReceived: 2, likesSent: 1 });
    expect(await stats(b)).toEqual({ matches: 1, likesReceived: 1, likesSent: 1 });

    expect(await bed.block(a, b)).toBe('handled');
    expect(await myMatches(a)).toEqual([]);
    expect(await myMatches(b)).toEqual([]);
    expect(await stats(a)).toEqual({ matches: 0, likesReceived: 1, likesSent: 1 });
    expect(await stats(b)).toEqual({ matches: 0, likesReceived: 0, likesSent: 1 });
    // A repeated like does not bring the match back.
    expect(await like(b, a)).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: false, bSeesA: false });
  });

  it('an unmatch ends the match for both; the pair is not suggested again and cannot match again', async () => {
    const { a, b, matchId } = await matched();
    expect(await bed.unmatch(b, a, matchId)).toBe('handled');
    expect(await myMatches(a)).toEqual([]);
    expect(await myMatches(b)).toEqual([]);
    expect((await stats(a)).matches).toBe(0);
    expect((await stats(b)).matches).toBe(0);
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: false, bSeesA: false });
    // The likes stay: a repeated like answers the pair as it stands (no match), and makes none.
    expect(await like(a, b)).toMatchObject({ status: 200, body: { matched: false } });
    expect(await like(b, a)).toMatchObject({ status: 200, body: { matched: false } });
    expect(await matchCreatedFor(a, b)).toBe(1);
    expect(await myMatches(a)).toEqual([]);
  });

  it('an unblock after which neither blocks makes the pair suggestible again, without the match', async () => {
    const { a, b, matchId } = await matched();
    await bed.block(a, b);
    expect(await bed.unblock(a, b)).toBe('handled');
    expect(await myMatches(a)).toEqual([]);
    expect(await myMatches(b)).toEqual([]);
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: true, bSeesA: true });
    expect(await stats(a)).toEqual({ matches: 0, likesReceived: 0, likesSent: 0 });
    // They may like each other anew, and that makes a new match.
    expect((await like(a, b)).body).toEqual({ matched: false });
    const again = await like(b, a);
    expect(again.body).toEqual({ matched: true, matchId: expect.any(String) });
    expect(again.body.matchId).not.toBe(matchId);
    expect(await myMatches(a)).toEqual([
      expect.objectContaining({ matchId: again.body.matchId, userId: b.userId }),
    ]);
  });

  it("match.created carries the pair's safety version matching had applied (0 before any pair event)", async () => {
    const pairVersionOf = async (a: TestMember, b: TestMember): Promise<number[]> => {
      const rows: { v: number }[] = await bed.dataSource.query(
        `SELECT (body->'payload'->>'pairVersion')::int AS v FROM outbox WHERE name = 'match.created'
           AND body->'payload'->'userIds' @> to_jsonb(ARRAY[$1::text, $2::text]) ORDER BY created_at`,
        [a.userId, b.userId],
      );
      return rows.map((r) => r.v);
    };
    const { a, b } = await matched();
    expect(await pairVersionOf(a, b)).toEqual([0]);
    // Block (version 1) and unblock (version 2): the match ends; a new one is made under version 2,
    // so chat and safety know it came after both (ADR 0014: versions, never clocks).
    await bed.block(a, b, [a], 1);
    await bed.unblock(a, b, [], 2);
    await like(a, b);
    expect((await like(b, a)).body).toMatchObject({ matched: true });
    expect(await pairVersionOf(a, b)).toEqual([0, 2]);
  });

  it('a partial unblock (the other still blocks) keeps the pair apart both ways', async () => {
    const { a, b } = await trio();
    await bed.block(a, b);
    await bed.block(b, a, [a, b]);
    expect(await bed.unblock(a, b, [b])).toBe('handled');
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: false, bSeesA: false });
    expect(await like(a, b)).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    expect(await bed.unblock(b, a, [])).toBe('handled');
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: true, bSeesA: true });
  });

  it('an unmatch that carries a block keeps the pair blocked (the event is the whole state)', async () => {
    const { a, b, matchId } = await matched();
    expect(await bed.unmatch(a, b, matchId, [b])).toBe('handled');
    await bed.unblock(a, b, [b]);
    expect(await like(a, b)).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
  });

  it('applies only the newest version of a pair: stale and reordered events change nothing', async () => {
    const { a, b } = await trio();
    // The unblock (version 2) arrives before the block (version 1): the block is stale.
    expect(await bed.unblock(a, b, [], 2)).toBe('handled');
    expect(await bed.block(a, b, [a], 1)).toBe('stale');
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: true, bSeesA: true });

    const other = await trio();
    // A block (version 2) and then an older unblock (version 1): still blocked.
    expect(await bed.block(other.a, other.b, [other.a], 2)).toBe('handled');
    expect(await bed.unblock(other.a, other.b, [], 1)).toBe('stale');
    expect(await seeEachOther(other.a, other.b)).toEqual({ aSeesB: false, bSeesA: false });
    // A redelivered event (same id) is a duplicate.
    const envelopeId = randomUUID();
    const payload = {
      pairId: pairIdOf(other.a.userId, other.b.userId),
      userIds: [other.a.userId, other.b.userId].sort() as [string, string],
      blockedBy: [],
      blockerId: other.a.userId,
      blockedId: other.b.userId,
      unblockedAt: new Date().toISOString(),
    };
    const envelope = {
      id: envelopeId,
      name: 'user.unblocked' as const,
      version: 1,
      producer: 'safety-service' as const,
      occurredAt: new Date().toISOString(),
      aggregateType: 'pair' as const,
      aggregateId: payload.pairId,
      aggregateVersion: 3,
      payload,
    };
    expect(await bed.consumer.apply(envelope)).toBe('handled');
    expect(await bed.consumer.apply(envelope)).toBe('duplicate');
    expect(await seeEachOther(other.a, other.b)).toEqual({ aSeesB: true, bSeesA: true });
  });

  it('reads ids in any case and refuses a pair event that does not name two members', async () => {
    const { a, b } = await trio();
    const shout = (m: TestMember) => ({ ...m, userId: m.userId.toUpperCase() });
    expect(await bed.block(shout(a), shout(b), [shout(a)])).toBe('handled');
    expect(await seeEachOther(a, b)).toEqual({ aSeesB: false, bSeesA: false });

    const { a: c } = await trio();
    const pairId = pairIdOf(c.userId, c.userId);
    for (const userIds of [[c.userId, c.userId], [c.userId], [c.userId, 'not-a-member']]) {
      await expect(
        bed.deliver(
          'user.blocked',
          {
            pairId,
            userIds: userIds as [string, string],
            blockedBy: [c.userId],
            blockerId: c.userId,
            blockedId: c.userId,
            endedMatchId: null,
            blockedAt: new Date().toISOString(),
          },
          1,
        ),
        // Recorded as unreadable by the kit's consumer (never retried) and never handled.
      ).resolves.toBe('unreadable');
    }
    expect(
      await bed.dataSource.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [c.userId]),
    ).toEqual([]);
  });

  it('a block racing mutual likes never leaves a match behind', async () => {
    for (let round = 0; round < 10; round++) {
      const { a, b } = await trio();
      await like(a, b);
      await Promise.all([like(b, a), bed.block(a, b)]);
      expect({ round, matches: await myMatches(a) }).toEqual({ round, matches: [] });
      expect({ round, matches: await myMatches(b) }).toEqual({ round, matches: [] });
    }
  });
});
