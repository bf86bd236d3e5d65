import { randomUUID } from 'node:crypto';
import { INTERNAL_ADMIN_PATHS, INTERNAL_TOKEN_HEADER, type LikeResultDto } from '@mate/contracts';
import { BaseServiceEnv } from '@mate/server-kit';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type TestMember,
} from '../../__tests__/matching-test-bed';

jest.setTimeout(60_000);

/**
 * matching-service's side of the admin area (issue 13): a member's live match count and the
 * matches ever made for admin-service (internal credential only), and pass.created written in
 * the transaction of every pass.
 */
describe('matching: admin counts and pass.created (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const credential = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };
  const internal = <T>(path: string, headers: Record<string, string> = credential) =>
    bed.call<T>('GET', path, { headers });
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) =>
    bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });
  const passEvents = async (passerId: string) =>
    (
      await bed.dataSource.query<{ payload: Record<string, unknown> }[]>(
        `SELECT body->'payload' AS payload FROM outbox WHERE name = 'pass.created' AND body->'payload'->>'passerId' = $1 ORDER BY created_at`,
        [passerId],
      )
    ).map((r) => r.payload);
  const total = async () =>
    (await internal<{ matches: { total: number } }>(INTERNAL_ADMIN_PATHS.matchingStats)).body.matches.total;

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_admin');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('refuses the admin routes without the internal credential, and a member token opens nothing', async () => {
    const member = await bed.member(bed.place());
    for (const path of [
      INTERNAL_ADMIN_PATHS.matchingMember(member.userId),
      INTERNAL_ADMIN_PATHS.matchingStats,
    ]) {
      expect((await internal(path, {})).status).toBe(403);
      expect((await bed.call('GET', path, { token: member.token })).status).toBe(403);
    }
    expect(await internal(INTERNAL_ADMIN_PATHS.matchingMember('nope'))).toMatchObject({
      status: 400,
      body: { error: 'userId must be a UUID' },
    });
  });

  it("counts a member's live matches, and every match ever made (ended ones included)", async () => {
    const place = bed.place();
    const [ana, ben, cy] = [await bed.member(place), await bed.member(place), await bed.member(place)];
    const before = await total();
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(ana.userId))).body).toEqual({ matchCount: 0 });

    await like(ana, ben);
    const withBen = await like(ben, ana);
    expect(withBen.body).toMatchObject({ matched: true });
    await like(ana, cy);
    expect((await like(cy, ana)).body).toMatchObject({ matched: true });
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(ana.userId.toUpperCase()))).body).toEqual({
      matchCount: 2,
    });
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(ben.userId))).body).toEqual({ matchCount: 1 });
    expect(await total()).toBe(before + 2);

    // Ben unmatches: Ana's live count drops, the matches ever made do not.
    const matchId = (withBen.body as { matchId: string }).matchId;
    expect(await bed.unmatch(ben, ana, matchId)).toBe('handled');
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(ana.userId))).body).toEqual({ matchCount: 1 });
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(ben.userId))).body).toEqual({ matchCount: 0 });
    expect(await total()).toBe(before + 2);
    expect((await internal(INTERNAL_ADMIN_PATHS.matchingMember(randomUUID()))).body).toEqual({
      matchCount: 0,
    });
  });

  it('writes pass.created with every pass, once: not for a repeat, a pass on someone liked, or a refused pass', async () => {
    const place = bed.place();
    const [dee, eli, fay] = [await bed.member(place), await bed.member(place), await bed.member(place)];
    expect((await pass(dee, eli)).status).toBe(200);
    const events = await passEvents(dee.userId);
    expect(events).toEqual([{ passerId: dee.userId, passedId: eli.userId, createdAt: expect.any(String) }]);
    expect(Math.abs(Date.parse(events[0].createdAt as string) - Date.now())).toBeLessThan(60_000);

    expect((await pass(dee, eli)).status).toBe(200);
    expect((await like(dee, fay)).status).toBe(200);
    expect((await pass(dee, fay)).status).toBe(200);
    expect((await pass(dee, dee)).status).toBe(400);
    expect((await bed.call('POST', `/api/matches/pass/${randomUUID()}`, { token: dee.token })).status).toBe(
      404,
    );
    expect(await passEvents(dee.userId)).toHaveLength(1);
  });
});
