import { MatchingMessages, type LikeResultDto, type MatchDto } from '@mate/contracts';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

jest.setTimeout(60_000);

/**
 * auth-service's suspension in matching (issue 13): user.suspended and user.unsuspended, each the
 * whole suspension state on the `user` aggregate, through the real consumer on real PostgreSQL
 * and Redis.
 */
describe('suspension (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) =>
    bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });
  const myMatches = async (member: TestMember) =>
    (await bed.call<MatchDto[]>('GET', '/api/matches/my-matches', { token: member.token })).body;
  const suspend = (member: TestMember, version: number) =>
    bed.deliver(
      'user.suspended',
      { userId: member.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() },
      version,
    );
  const unsuspend = (member: TestMember, version: number) =>
    bed.deliver(
      'user.unsuspended',
      { userId: member.userId, suspended: false, unsuspendedAt: new Date().toISOString() },
      version,
    );
  const unavailable = { status: 400, body: { error: MatchingMessages.notSuggestible } };
  const trio = async () => {
    const place = bed.place();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => bed.member(place)));
    return { a, b, c };
  };

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_suspension');
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('a suspended member is never suggested and likes and passes on them are refused; unsuspend restores both', async () => {
    const { a, b, c } = await trio();
    expect(await bed.suggestedTo(a)).toEqual(expect.arrayContaining([b.userId, c.userId]));

    expect(await suspend(b, 1)).toBe('handled');
    expect(await bed.suggestedTo(a)).not.toContain(b.userId);
    expect(await bed.suggestedTo(c)).not.toContain(b.userId);
    expect(await bed.suggestedTo(a)).toContain(c.userId);
    expect(await like(a, b)).toMatchObject(unavailable);
    expect(await pass(c, b)).toMatchObject(unavailable);
    const swipes = await bed.dataSource.query('SELECT 1 FROM swipe WHERE target_id = $1', [b.userId]);
    expect(swipes).toEqual([]);

    expect(await unsuspend(b, 2)).toBe('handled');
    expect(await bed.suggestedTo(a)).toContain(b.userId);
    expect(await like(a, b)).toMatchObject({ status: 200, body: { matched: false } });
    expect(await pass(c, b)).toMatchObject({ status: 200, body: { passed: true } });
  });

  it('a repeated like on a suspended member is refused too; the match stays and unsuspend has it as before', async () => {
    const { a, b, c } = await trio();
    await like(a, b);
    const made = await like(b, a);
    expect(made.body).toEqual({ matched: true, matchId: expect.any(String) });
    await like(c, b);

    await suspend(b, 1);
    expect(await like(a, b)).toMatchObject(unavailable);
    expect(await like(c, b)).toMatchObject(unavailable);
    expect(await myMatches(a)).toEqual([
      expect.objectContaining({ matchId: made.body.matchId, userId: b.userId }),
    ]);

    await unsuspend(b, 2);
    expect(await like(a, b)).toMatchObject({
      status: 200,
      body: { matched: true, matchId: made.body.matchId },
    });
    expect(await myMatches(b)).toEqual([
      expect.objectContaining({ matchId: made.body.matchId, userId: a.userId }),
    ]);
  });

  it('skips a late user.suspended older than the unsuspend already applied', async () => {
    const { a, b } = await trio();
    expect(await unsuspend(b, 3)).toBe('handled');
    expect(await suspend(b, 2)).toBe('stale');
    expect(await bed.suggestedTo(a)).toContain(b.userId);
    expect(await like(a, b)).toMatchObject({ status: 200, body: { matched: false } });
  });
});
