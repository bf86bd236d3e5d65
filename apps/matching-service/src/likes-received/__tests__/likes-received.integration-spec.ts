import { MatchingMessages, type LikeResultDto, type LikesReceivedDto, type MatchDto } from '@mate/contracts';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

/** "Who liked you" (issue 25): GET /api/matches/likes-received against real PostgreSQL and Redis. */
describe('likes received (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) =>
    bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });
  const likesOf = async (member: TestMember, query = '') => {
    const res = await bed.call<LikesReceivedDto>('GET', `/api/matches/likes-received${query}`, {
      token: member.token,
    });
    if (res.status !== 200)
      throw new Error(`likes-received answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const likerIds = async (member: TestMember, query = '') =>
    (await likesOf(member, query)).likers.map((l) => l.user.id);

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_likes_received');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it("lists the caller's unanswered likes, newest first, each as the Discover card shows the liker", async () => {
    const viewer = await bed.member();
    const [first, second, someoneElse] = await Promise.all(
      [1, 2, 3].map(() => bed.member({ name: 'Liker' })),
    );
    expect((await like(first, viewer)).status).toBe(200);
    expect((await like(second, viewer)).status).toBe(200);
    // A like given to somebody else, and the viewer's own like, are not the viewer's likes received.
    expect((await like(someoneElse, first)).status).toBe(200);
    expect((await like(viewer, someoneElse)).status).toBe(200);

    const answer = await likesOf(viewer);
    expect(answer.total).toBe(2);
    expect(answer.likers.map((l) => l.user.id)).toEqual([second.userId, first.userId]);
    const { profilePicture, photos = [] } = bed.profileOf(second.userId);
    expect(answer.likers[0]).toEqual({
      user: {
        id: second.userId,
        name: 'Liker',
        age: 30,
        bio: 'Hello there',
        location: null,
        occupation: 'Engineer',
        interests: ['Travel', 'Music'],
        profilePicture,
      },
      photos: photos.map(({ id, url }, order) => ({ id, url, isPrimary: order === 0, order })),
      likedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Each member reads only the likes they received.
    expect(await likerIds(first)).toEqual([someoneElse.userId]);
    expect(await likerIds(someoneElse)).toEqual([viewer.userId]);
    expect(await likesOf(second)).toEqual({ total: 0, likers: [] });
  });

  it('leaves out likes the caller answered (a pass, or a like back that made the match)', async () => {
    const viewer = await bed.member();
    const [passed, matched, waiting] = await Promise.all([1, 2, 3].map(() => bed.member()));
    for (const liker of [passed, matched, waiting]) expect((await like(liker, viewer)).status).toBe(200);
    expect(await likerIds(viewer)).toEqual([waiting.userId, matched.userId, passed.userId]);

    expect((await pass(viewer, passed)).status).toBe(200);
    expect(await likerIds(viewer)).toEqual([waiting.userId, matched.userId]);

    // Liking back (Discover's own like route) makes the match and takes the liker off the list.
    const likedBack = await like(viewer, matched);
    expect(likedBack).toMatchObject({ status: 200, body: { matched: true, matchId: expect.any(String) } });
    expect(await likesOf(viewer)).toMatchObject({ total: 1, likers: [{ user: { id: waiting.userId } }] });
    const matches = await bed.call<MatchDto[]>('GET', '/api/matches/my-matches', { token: viewer.token });
    expect(matches.body.map((m) => m.userId)).toEqual([matched.userId]);
  });

  it('leaves out a pair either of whom blocks the other, and suspended and deleted likers', async () => {
    const viewer = await bed.member();
    const [blockedByViewer, blockingViewer, suspended, deleted, kept] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => bed.member()),
    );
    for (const liker of [blockedByViewer, blockingViewer, suspended, deleted, kept])
      expect((await like(liker, viewer)).status).toBe(200);
    expect((await likesOf(viewer)).total).toBe(5);

    expect(await bed.block(viewer, blockedByViewer)).toBe('handled');
    expect(await bed.block(blockingViewer, viewer)).toBe('handled');
    expect(
      await bed.deliver(
        'user.suspended',
        { userId: suspended.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() },
        1,
      ),
    ).toBe('handled');
    expect(
      await bed.deliver('user.deleted', { userId: deleted.userId, deletedAt: new Date().toISOString() }),
    ).toBe('handled');

    expect(await likesOf(viewer)).toMatchObject({ total: 1, likers: [{ user: { id: kept.userId } }] });
  });

  it('pages with limit and offset, the total counting every unanswered like', async () => {
    const viewer = await bed.member();
    const likers = await Promise.all([1, 2, 3].map(() => bed.member()));
    for (const liker of likers) expect((await like(liker, viewer)).status).toBe(200);
    const newestFirst = likers.map((l) => l.userId).reverse();
    expect(await likesOf(viewer, '?limit=2')).toMatchObject({ total: 3 });
    expect(await likerIds(viewer, '?limit=2')).toEqual(newestFirst.slice(0, 2));
    expect(await likerIds(viewer, '?limit=2&offset=2')).toEqual(newestFirst.slice(2));
    expect(await likesOf(viewer, '?offset=10')).toEqual({ total: 3, likers: [] });
  });

  it('refuses a bad limit, a bad offset and unknown fields with clear messages', async () => {
    const member = await bed.member();
    const cases: [string, string][] = [
      ['limit=0', MatchingMessages.likesReceivedLimit],
      ['limit=51', MatchingMessages.likesReceivedLimit],
      ['limit=ten', MatchingMessages.likesReceivedLimit],
      ['limit=2.5', MatchingMessages.likesReceivedLimit],
      ['offset=-1', MatchingMessages.likesReceivedOffset],
      ['offset=x', MatchingMessages.likesReceivedOffset],
      ['offset=1000001', MatchingMessages.likesReceivedOffset],
      ['sort=age', 'Unknown field: sort'],
    ];
    for (const [query, error] of cases) {
      const res = await bed.call('GET', `/api/matches/likes-received?${query}`, { token: member.token });
      expect({ query, status: res.status, body: res.body }).toEqual({
        query,
        status: 400,
        body: expect.objectContaining({ error }),
      });
    }
  });

  it('answers an empty list to a member matching has not heard of, and 401 without a session', async () => {
    const stranger = await bed.signIn();
    expect(await bed.call('GET', '/api/matches/likes-received', { token: stranger.token })).toMatchObject({
      status: 200,
      body: { total: 0, likers: [] },
    });
    expect((await bed.call('GET', '/api/matches/likes-received')).status).toBe(401);
  });
});
