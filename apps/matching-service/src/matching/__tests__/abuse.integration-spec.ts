import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  MatchingErrorCode,
  MatchingMessages,
  ROLE_MEMBER,
  type LikeResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { waitFor } from '@mate/server-kit/testing';
import {
  MATCHING_ROUTES,
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

/**
 * The security review of matching-service (ADR 0012, "Security review"): what a member with a
 * valid session, a script or a hostile event can learn or break.
 */
describe('matching-service against a hostile member (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const like = (from: TestMember, toId: string) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${toId}`, { token: from.token });
  const pass = (from: TestMember, toId: string) =>
    bed.call('POST', `/api/matches/pass/${toId}`, { token: from.token });
  const rewind = (member: TestMember) =>
    bed.call<{ suggestion: SuggestionDto }>('POST', '/api/matches/rewind', { token: member.token });
  /** A UUID whose first character is `first` (ids are compared as PostgreSQL orders them). */
  const idStartingWith = (first: string) => `${first}${randomUUID().slice(1)}`;

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_abuse');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('pass then rewind shows no card of a member outside the rules or not suggestible', async () => {
    const place = bed.place();
    const attacker = await bed.member({ ...place, gender: 'male' });
    // Wants women only: the attacker never gets this card.
    const picky = await bed.member({ ...place, name: 'Picky' }, { genderPreference: ['female'] });
    const hidden = await bed.member({ ...place, name: 'Hidden', onboardingCompleted: false });
    for (const target of [picky, hidden]) {
      expect(await bed.suggestedTo(attacker)).not.toContain(target.userId);
      await pass(attacker, target.userId);
      const res = await rewind(attacker);
      expect(res).toMatchObject({ status: 404, body: { error: MatchingMessages.nothingToRewind } });
      expect(JSON.stringify(res.body)).not.toMatch(/Picky|Hidden/);
    }
  });

  it('rewind skips a pass on someone who has since left the rules, and brings back the latest one who fits', async () => {
    const place = bed.place();
    const viewer = await bed.member({ ...place, gender: 'male' });
    const [stays, leaves] = await Promise.all([bed.member(place), bed.member(place)]);
    await pass(viewer, stays.userId);
    await pass(viewer, leaves.userId);
    await bed.updatePreferences(leaves.userId, { genderPreference: ['female'] });
    const res = await rewind(viewer);
    expect(res).toMatchObject({ status: 200, body: { suggestion: { user: { id: stays.userId } } } });
    expect(await rewind(viewer)).toMatchObject({ status: 404 });
  });

  it('gives one answer to a like on a member who is not suggestible or outside the rules (either way)', async () => {
    const place = bed.place();
    const attacker = await bed.member({ ...place, gender: 'male' });
    const noPhoto = await bed.member({ ...place, hasPhoto: false, photos: [], profilePicture: null });
    const outside = await bed.member(place, { genderPreference: ['female'] });
    const unsuggestible = await like(attacker, noPhoto.userId);
    const outsideRules = await like(attacker, outside.userId);
    expect(unsuggestible).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.notSuggestible, code: MatchingErrorCode.NotSuggestible },
    });
    expect(outsideRules).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.notSuggestible, code: MatchingErrorCode.NotSuggestible },
    });
    expect(unsuggestible.body).toEqual({ ...outsideRules.body, requestId: expect.any(String) });
  });

  it('reads a member id in any letter case as the same member', async () => {
    const place = bed.place();
    // PostgreSQL orders uuids by value; an upper-case spelling must not change the pair's order or lock.
    const early = await bed.member(place, {}, idStartingWith('a'));
    const late = await bed.member(place, {}, idStartingWith('b'));
    expect(await pass(early, early.userId.toUpperCase())).toMatchObject({
      status: 400,
      body: { error: MatchingMessages.passSelf },
    });
    expect((await like(late, early.userId)).body).toEqual({ matched: false });
    const matched = await like(early, late.userId.toUpperCase());
    expect(matched).toMatchObject({ status: 200, body: { matched: true } });
    const [created]: { payload: Record<string, unknown> }[] = await bed.dataSource.query(
      `SELECT body->'payload' AS payload FROM outbox WHERE name = 'like.created' AND body->'payload'->>'likerId' = $1`,
      [early.userId],
    );
    expect(created.payload['likedId']).toBe(late.userId);
    expect(
      await bed.dataSource.query('SELECT 1 FROM swipe WHERE swiper_id = target_id AND swiper_id = $1', [
        early.userId,
      ]),
    ).toEqual([]);
  });

  it('a pass committed while a like of the same pair is under way refuses the like cleanly (no 500)', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const target = await bed.member(place);
    // Another request's pass, its row written but not committed yet: the like's insert waits on it.
    const runner = bed.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('INSERT INTO swipe (swiper_id, target_id, liked) VALUES ($1, $2, false)', [
        viewer.userId,
        target.userId,
      ]);
      const liking = like(viewer, target.userId);
      await waitFor(
        async () =>
          (
            await bed.dataSource.query(
              // The like runs as EXECUTE pair_like(...) (onceUnderPairLock): its text names no table.
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                 AND (query LIKE '%swipe%' OR query LIKE '%EXECUTE pair_like%')`,
            )
          ).length > 0,
        { what: 'the like waiting on the uncommitted pass' },
      );
      await runner.commitTransaction();
      expect(await liking).toMatchObject({ status: 400, body: { error: MatchingMessages.alreadyPassed } });
    } finally {
      await runner.release();
    }
  });

  it('two rewinds at once never bring one card back twice', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const [first, second] = await Promise.all([bed.member(place), bed.member(place)]);
    await pass(viewer, first.userId);
    await pass(viewer, second.userId);
    const answers = await Promise.all([rewind(viewer), rewind(viewer)]);
    const cards = answers.filter((a) => a.status === 200).map((a) => a.body.suggestion.user.id);
    expect(answers.every((a) => a.status === 200 || a.status === 404)).toBe(true);
    expect(cards).toContain(second.userId);
    expect(new Set(cards).size).toBe(cards.length);
  });

  it('refuses a huge, repeated or hostile limit with a clear message', async () => {
    const member = await bed.member(bed.place());
    const limitMessage = 'limit must be a whole number from 1 to 50';
    for (const [query, error] of [
      ['limit=99999999999', limitMessage],
      ['limit=1&limit=2', limitMessage],
      ['limit=1e2', limitMessage],
      ['limit=%2010', limitMessage],
      ['limit[$gt]=1', 'Unknown field: limit[$gt]'],
    ]) {
      const res = await bed.call('GET', `/api/matches/suggestions?${query}`, { token: member.token });
      expect({ query, status: res.status, error: res.body['error'] }).toEqual({ query, status: 400, error });
    }
  });

  it('counts a viewer once per member in the exposure that ranks members for everyone', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const other = await bed.member(place);
    const target = await bed.member(place);
    for (let i = 0; i < 5; i++) await bed.suggestions(viewer);
    await bed.suggestions(other);
    const [row]: { n: number; viewers: number }[] = await bed.dataSource.query(
      'SELECT count(*)::int AS n, count(DISTINCT viewer_id)::int AS viewers FROM impression WHERE target_id = $1',
      [target.userId],
    );
    expect(row).toEqual({ n: 2, viewers: 2 });
  });

  it('refuses every route to a session whose email is not verified', async () => {
    const { token } = await bed.signIn(randomUUID(), ROLE_MEMBER, { verified: false });
    for (const [method, route] of MATCHING_ROUTES) {
      const path = route();
      const res = await bed.call(method, path, { token });
      expect({ path, status: res.status, code: res.body['code'] }).toEqual({
        path,
        status: 403,
        code: ErrorCode.EmailNotVerified,
      });
    }
  });

  it('limits the swipes of one member (likes, passes and rewinds, refused ones too), not of others', async () => {
    const place = bed.place();
    const bot = await bed.member({ ...place, gender: 'male' });
    const outside = await bed.member(place, { genderPreference: ['female'] });
    const someone = await bed.member(place);
    for (let i = 0; i < 50; i++) expect((await like(bot, outside.userId)).status).toBe(400);
    for (let i = 0; i < 50; i++) expect((await pass(bot, someone.userId)).status).toBe(200);
    const refused = await like(bot, someone.userId);
    expect(refused).toMatchObject({
      status: 429,
      body: { error: MatchingMessages.tooManySwipes, code: ErrorCode.RateLimited },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await rewind(bot)).status).toBe(429);
    expect((await like(someone, bot.userId)).status).toBe(200);
  });

  it('limits how often one member loads suggestions', async () => {
    const member = await bed.member(bed.place());
    for (let i = 0; i < 30; i++) await bed.suggestions(member, 1);
    const refused = await bed.call('GET', '/api/matches/suggestions', { token: member.token });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: MatchingMessages.tooManySuggestions, code: ErrorCode.RateLimited },
    });
  });

  it('keeps profile and preference events with impossible coordinates or malformed lists from doing harm', async () => {
    const place = bed.place();
    const viewer = await bed.member(place, { maxDistance: 200 });
    const odd = await bed.member({ latitude: 95, longitude: 400, locationText: 'Nowhere', age: 77 });
    const read = (): Promise<{ lat: number | null; lng: number | null; interests: string[] }[]> =>
      bed.dataSource.query('SELECT lat, lng, interests FROM candidate WHERE user_id = $1', [odd.userId]);
    const [before] = await read();
    expect(before).toMatchObject({ lat: null, lng: null });
    // A list holding what is not text makes the payload unreadable: the kit's consumer records it
    // and no handler sees it (issue 28), so nothing of it is written.
    expect(
      await bed.updateProfile(odd.userId, {
        interests: ['Art', 42, { $gt: '' }, 'Music'] as unknown as string[],
      }),
    ).toBe('unreadable');
    expect(await read()).toEqual([before]);
    // An unknown place (issue 25): never shown to a member with a place, shown to one without.
    expect(await bed.suggestedTo(viewer)).not.toContain(odd.userId);
    const placelessViewer = await bed.member({}, { minAge: 77, maxAge: 77 });
    expect(await bed.suggestedTo(placelessViewer)).toContain(odd.userId);

    // A gender list that is not a list is unreadable too: recorded once, never an event failing
    // for ever, and the preferences stay as they were.
    const genders = async () =>
      (
        (await bed.dataSource.query('SELECT gender_preference FROM candidate WHERE user_id = $1', [
          odd.userId,
        ])) as {
          gender_preference: string[];
        }[]
      )[0].gender_preference;
    const gendersBefore = await genders();
    expect(
      await bed.updatePreferences(odd.userId, { genderPreference: 'female' as unknown as string[] }),
    ).toBe('unreadable');
    expect(await genders()).toEqual(gendersBefore);
  });
});
