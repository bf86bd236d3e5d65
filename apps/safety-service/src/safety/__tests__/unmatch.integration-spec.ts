import { randomUUID } from 'node:crypto';
import { pairIdOf, SafetyErrorCode, SafetyMessages, type MatchEndedPayload, type UnmatchResultDto } from '@mate/contracts';
import { startSafetyTestBed, type SafetyTestBed } from '../../__tests__/safety-test-bed';

describe('unmatch and the matches safety knows (real PostgreSQL and Redis)', () => {
  let t: SafetyTestBed;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_unmatch');
  }, 30_000);

  afterAll(async () => {
    await t?.close();
  }, 30_000);

  const pairEvents = async (a: string, b: string) =>
    (await t.events()).filter((e) => e.aggregateId === pairIdOf(a, b)).sort((x, y) => (x.aggregateVersion ?? 0) - (y.aggregateVersion ?? 0));
  const currentMatch = async (a: string, b: string): Promise<string | null> =>
    (await t.bed.dataSource.query('SELECT match_id FROM pair WHERE pair_id = $1', [pairIdOf(a, b)]))[0]?.match_id ?? null;

  it('ends the current match once, from either side, and publishes match.ended with the whole state', async () => {
    const ann = await t.member();
    const bob = await t.member();
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).toMatchObject({ status: 404, body: { error: SafetyMessages.notMatched } });
    const matchId = await t.match(ann, bob);

    const res = await t.api<UnmatchResultDto>(bob, 'POST', `/api/safety/unmatch/${ann.userId}`);
    expect(res).toEqual({ status: 200, body: { unmatched: true, matchId } });
    expect(await t.api(bob, 'POST', `/api/safety/unmatch/${ann.userId}`)).toMatchObject({ status: 404, body: { error: SafetyMessages.notMatched } });
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).toMatchObject({ status: 404 });

    const events = await pairEvents(ann.userId, bob.userId);
    expect(events.map((e) => [e.name, e.aggregateVersion])).toEqual([['match.ended', 1]]);
    expect(events[0].payload).toEqual<MatchEndedPayload>({
      pairId: pairIdOf(ann.userId, bob.userId),
      userIds: [ann.userId, bob.userId].sort() as [string, string],
      blockedBy: [],
      matchId,
      endedBy: bob.userId,
      reason: 'unmatch',
      endedAt: expect.any(String),
    });
  });

  it('refuses self, bad ids and a body with fields', async () => {
    const ann = await t.member();
    const bob = await t.member();
    await t.match(ann, bob);
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${ann.userId}`)).toMatchObject({
      status: 400,
      body: { error: SafetyMessages.unmatchSelf, code: SafetyErrorCode.UnmatchSelf },
    });
    expect(await t.api(ann, 'POST', '/api/safety/unmatch/xyz')).toMatchObject({ status: 400 });
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`, { matchId: randomUUID() })).toMatchObject({
      status: 400,
      body: { error: 'Unknown field: matchId' },
    });
    expect((await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`, {})).status).toBe(200);
  });

  it('a late or repeated match.created resurrects nothing; a new match after an unblock is the current one', async () => {
    const ann = await t.member();
    const bob = await t.member();
    const old = await t.match(ann, bob, { createdAt: new Date(Date.now() - 60_000) });
    await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`);
    // The ended match's event delivered again (a new event id, as a replay would carry).
    await t.match(ann, bob, { matchId: old, createdAt: new Date(Date.now() - 60_000) });
    expect(await currentMatch(ann.userId, bob.userId)).toBeNull();
    // A match made before the unmatch, told late.
    await t.match(ann, bob, { createdAt: new Date(Date.now() - 30_000) });
    expect(await currentMatch(ann.userId, bob.userId)).toBeNull();

    // Blocked: a match does not count.
    await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`);
    await t.match(ann, bob);
    expect(await currentMatch(ann.userId, bob.userId)).toBeNull();

    // Unblocked and matched again later: that match is the one an unmatch ends.
    await t.api(ann, 'DELETE', `/api/safety/block/${bob.userId}`);
    const fresh = await t.match(ann, bob, { createdAt: new Date(Date.now() + 1_000) });
    expect(await currentMatch(ann.userId, bob.userId)).toBe(fresh);
    expect((await t.api<UnmatchResultDto>(bob, 'POST', `/api/safety/unmatch/${ann.userId}`)).body).toEqual({ unmatched: true, matchId: fresh });

    const events = await pairEvents(ann.userId, bob.userId);
    expect(events.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['match.ended', 1],
      ['user.blocked', 2],
      ['user.unblocked', 3],
      ['match.ended', 4],
    ]);
    expect(events[1].payload).toMatchObject({ endedMatchId: null, blockedBy: [ann.userId] });
  });

  it("decides by pair versions, not clocks: a match made under an older version is ignored, one made under the newest counts", async () => {
    const ann = await t.member();
    const bob = await t.member();
    await t.match(ann, bob, { pairVersion: 0 });
    await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`); // version 1, ends that match
    await t.api(ann, 'DELETE', `/api/safety/block/${bob.userId}`); // version 2
    // Matching had not applied the block when this match was made (version 0), stamped later.
    await t.match(ann, bob, { pairVersion: 0, createdAt: new Date(Date.now() + 60_000) });
    expect(await currentMatch(ann.userId, bob.userId)).toBeNull();
    expect((await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).status).toBe(404);
    // Made after matching applied the unblock (version 2), on a clock a minute behind: it counts.
    const fresh = await t.match(ann, bob, { pairVersion: 2, createdAt: new Date(Date.now() - 60_000) });
    expect(await currentMatch(ann.userId, bob.userId)).toBe(fresh);
    expect((await t.api<UnmatchResultDto>(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).body).toEqual({ unmatched: true, matchId: fresh });
  });

  it('a match arriving while a block commits never survives the block (either order, under the pair lock)', async () => {
    const pairs = await Promise.all(Array.from({ length: 8 }, async () => [await t.member(), await t.member()] as const));
    await Promise.all(
      pairs.map(async ([a, b]) => {
        const [blocked] = await Promise.all([t.api(a, 'POST', `/api/safety/block/${b.userId}`), t.match(a, b)]);
        expect(blocked.status).toBe(200);
      }),
    );
    for (const [a, b] of pairs) {
      expect(await currentMatch(a.userId, b.userId)).toBeNull();
      expect((await t.api(a, 'POST', `/api/safety/unmatch/${b.userId}`)).status).toBe(404);
    }
  });

  it('skips an unreadable match.created without failing the consumer', async () => {
    const ann = await t.member();
    expect(
      await t.deliver('match.created', { matchId: 'nope', userIds: [ann.userId, ann.userId], createdAt: 'yesterday' }),
    ).toBe('unreadable');
    expect(await t.bed.dataSource.query('SELECT 1 FROM pair WHERE member_a = $1 OR member_b = $1', [ann.userId])).toEqual([]);
  });
});
