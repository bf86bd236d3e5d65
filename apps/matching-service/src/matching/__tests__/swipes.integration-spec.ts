import { randomUUID } from 'node:crypto';
import { MatchingErrorCode, MatchingMessages, type LikeResultDto, type MatchDto, type SuggestionDto } from '@mate/contracts';
import { waitFor } from '@mate/server-kit/testing';
import { readEventPayload } from '@mate/server-kit';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

describe('likes, passes, rewinds and matches (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) =>
    bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });
  const outbox = async (name: string): Promise<Record<string, unknown>[]> => {
    const rows: { payload: Record<string, unknown> }[] = await bed.dataSource.query(
      `SELECT body->'payload' AS payload FROM outbox WHERE name = $1 ORDER BY id`,
      [name],
    );
    return rows.map((r) => r.payload);
  };

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_swipes');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('serves cards with a whole-percent score, the photos, a coarse distance and no coordinates', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const other = await bed.member({ ...bed.north(place, 23), name: 'Ana', interests: ['Art'] });
    const [card] = await bed.suggestions(viewer);
    const { locationText, profilePicture, photos = [] } = bed.profileOf(other.userId);
    expect(card).toEqual<SuggestionDto>({
      user: {
        id: other.userId,
        name: 'Ana',
        age: 30,
        bio: 'Hello there',
        location: locationText,
        occupation: 'Engineer',
        interests: ['Art'],
        profilePicture,
      },
      score: expect.any(Number),
      photos: photos.map(({ id, url }, order) => ({ id, url, isPrimary: order === 0, order })),
      distance: 'about 30 km',
    });
    expect(card.photos).toHaveLength(1);
    expect(Number.isInteger(card.score) && card.score >= 0 && card.score <= 100).toBe(true);
    expect(JSON.stringify(card)).not.toMatch(/latitude|longitude|"lat"|"lng"/);
    const impressions = await bed.dataSource.query(
      'SELECT target_id, model_version FROM impression WHERE viewer_id = $1',
      [viewer.userId],
    );
    expect(impressions).toEqual([{ target_id: other.userId, model_version: expect.any(String) }]);
  });

  it('answers at most `limit` suggestions', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    await Promise.all([1, 2, 3].map(() => bed.member(place)));
    expect(await bed.suggestions(viewer, 2)).toHaveLength(2);
  });

  it('never suggests a member again after a like or a pass; rewind brings back the latest pass first', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => bed.member(place)));
    expect((await like(viewer, a)).body).toEqual({ matched: false });
    expect(await pass(viewer, b)).toMatchObject({ status: 200, body: { passed: true } });
    expect(await pass(viewer, c)).toMatchObject({ status: 200, body: { passed: true } });
    expect(await bed.suggestedTo(viewer)).toEqual([]);

    const rewound = await bed.call<{ suggestion: SuggestionDto }>('POST', '/api/matches/rewind', {
      token: viewer.token,
    });
    expect(rewound).toMatchObject({ status: 200, body: { suggestion: { user: { id: c.userId } } } });
    expect(await bed.suggestedTo(viewer)).toEqual([c.userId]);
    const again = await bed.call<{ suggestion: SuggestionDto }>('POST', '/api/matches/rewind', {
      token: viewer.token,
    });
    expect(again.body.suggestion.user.id).toBe(b.userId);
    // Likes are never rewound.
    const nothing = await bed.call('POST', '/api/matches/rewind', { token: viewer.token });
    expect(nothing).toMatchObject({
      status: 404,
      body: { error: MatchingMessages.nothingToRewind, code: MatchingErrorCode.NothingToRewind },
    });
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([b.userId, c.userId].sort());
  });

  it('a repeated like answers the same; a like after a pass is refused; a pass keeps an earlier like', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const [a, b] = await Promise.all([1, 2].map(() => bed.member(place)));
    expect((await like(viewer, a)).body).toEqual({ matched: false });
    expect(await like(viewer, a)).toMatchObject({ status: 200, body: { matched: false } });
    expect(await pass(viewer, a)).toMatchObject({ status: 200, body: { passed: true } });
    expect((await bed.call('GET', '/api/matches/stats', { token: viewer.token })).body).toEqual({
      matches: 0,
      likesReceived: 0,
      likesSent: 1,
    });

    await pass(viewer, b);
    expect(await like(viewer, b)).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.alreadyPassed, code: MatchingErrorCode.AlreadyPassed },
    });
    expect(await outbox('like.created')).toEqual(
      expect.arrayContaining([
        { likerId: viewer.userId, likedId: a.userId, matched: false, createdAt: expect.any(String) },
      ]),
    );
    expect((await outbox('like.created')).filter((p) => p['likerId'] === viewer.userId)).toHaveLength(1);
    // What the statement completed reads as the event's payload class (the consumers' check).
    expect((await outbox('like.created')).filter((p) => !readEventPayload('like.created', p).readable)).toEqual([]);
  });

  it('refuses likes and passes on oneself and on members matching does not know', async () => {
    const viewer = await bed.member(bed.place());
    const nobody = { userId: randomUUID(), token: '' };
    expect(await like(viewer, viewer)).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.likeSelf, code: MatchingErrorCode.LikeSelf },
    });
    expect(await pass(viewer, viewer)).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.passSelf, code: MatchingErrorCode.PassSelf },
    });
    expect(await like(viewer, nobody)).toMatchObject({
      status: 404,
      body: { error: MatchingMessages.memberNotFound, code: MatchingErrorCode.MemberNotFound },
    });
    expect(await pass(viewer, nobody)).toMatchObject({
      status: 404,
      body: { error: MatchingMessages.memberNotFound },
    });
  });

  it('a mutual like is a match: published, pushed live to both, listed newest first, counted', async () => {
    const place = bed.place();
    const ana = await bed.member({ ...place, name: 'Ana' });
    const ben = await bed.member({ ...place, name: 'Ben' });
    const cleo = await bed.member({ ...place, name: 'Cleo' });
    expect((await like(ana, ben)).body).toEqual({ matched: false });
    const matched = await like(ben, ana);
    expect(matched).toMatchObject({ status: 200, body: { matched: true, matchId: expect.any(String) } });
    const { matchId } = matched.body;
    // Idempotent after the match too.
    expect((await like(ana, ben)).body).toEqual({ matched: true, matchId });

    await like(ana, cleo);
    const second = await like(cleo, ana);
    // Each side sees the other by name and primary photo, at the time the match was made.
    const picture = (m: TestMember) => bed.profileOf(m.userId).profilePicture;
    const list = await bed.call<MatchDto[]>('GET', '/api/matches/my-matches', { token: ana.token });
    expect(list.body).toEqual([
      {
        matchId: second.body.matchId,
        userId: cleo.userId,
        name: 'Cleo',
        profilePicture: picture(cleo),
        matchedAt: expect.any(String),
      },
      {
        matchId,
        userId: ben.userId,
        name: 'Ben',
        profilePicture: picture(ben),
        matchedAt: expect.any(String),
      },
    ]);
    const [withCleo, withBen] = list.body;
    expect(Date.parse(withCleo.matchedAt)).toBeGreaterThanOrEqual(Date.parse(withBen.matchedAt));
    expect((await bed.call('GET', '/api/matches/my-matches', { token: ben.token })).body).toEqual([
      {
        matchId,
        userId: ana.userId,
        name: 'Ana',
        profilePicture: picture(ana),
        matchedAt: withBen.matchedAt,
      },
    ]);

    const pushes = (await bed.pushes()).filter((p) => p.event === 'new_match');
    const toUser = (id: string) => pushes.filter((p) => p.rooms.includes(`user:${id}`)).map((p) => p.payload);
    expect(toUser(ana.userId)).toEqual([
      {
        matchId,
        user: { id: ben.userId, name: 'Ben', profilePicture: picture(ben) },
        matchedAt: withBen.matchedAt,
      },
      {
        matchId: second.body.matchId,
        user: { id: cleo.userId, name: 'Cleo', profilePicture: picture(cleo) },
        matchedAt: withCleo.matchedAt,
      },
    ]);
    expect(toUser(ben.userId)).toEqual([
      {
        matchId,
        user: { id: ana.userId, name: 'Ana', profilePicture: picture(ana) },
        matchedAt: withBen.matchedAt,
      },
    ]);
    expect((await bed.call('GET', '/api/matches/stats', { token: ana.token })).body).toEqual({
      matches: 2,
      likesReceived: 2,
      likesSent: 2,
    });
    expect(await outbox('match.created')).toEqual(
      expect.arrayContaining([
        { matchId, userIds: [ana.userId, ben.userId].sort(), createdAt: expect.any(String), pairVersion: 0 },
      ]),
    );
    expect((await outbox('match.created')).filter((p) => !readEventPayload('match.created', p).readable)).toEqual([]);
  });

  it('concurrent mutual likes make exactly one match, every time', async () => {
    const place = bed.place();
    for (let round = 0; round < 25; round++) {
      const [x, y] = await Promise.all([bed.member(place), bed.member(place)]);
      const [fromX, fromY] = await Promise.all([like(x, y), like(y, x)]);
      expect([fromX.status, fromY.status]).toEqual([200, 200]);
      const matches = await bed.dataSource.query('SELECT id FROM match WHERE $1 IN (user_a, user_b)', [
        x.userId,
      ]);
      expect(matches).toHaveLength(1);
      // Exactly one of the two likes made it; both end up knowing it.
      expect([fromX.body.matched, fromY.body.matched].filter(Boolean)).toHaveLength(1);
      const created = (await outbox('match.created')).filter((p) =>
        (p['userIds'] as string[]).includes(x.userId),
      );
      expect(created).toHaveLength(1);
      await waitFor(
        async () => (await bed.pushes()).filter((p) => p.payload['matchId'] === matches[0].id).length === 2,
        {
          what: 'the new_match push to both members',
        },
      );
    }
  }, 60_000);
});
