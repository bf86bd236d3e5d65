import { ReadReplica } from '@mate/server-kit';
import { withReadReplica } from '@mate/server-kit/testing';
import { startPostgresPrimaryAndReplica, type PostgresPrimaryAndReplica } from '@mate/testing';
import { startMatchingTestBed, type MatchingTestBed, type TestMember } from '../../__tests__/matching-test-bed';

jest.setTimeout(60_000);

/**
 * Suggestions' candidate pool read from a streaming replica (DATABASE_READ_URL), a member's own
 * likes and passes still seen at once (docs/adr/0033). The replica lags when its replay is paused.
 */
describe('suggestions from a read replica, with read-your-writes', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) => bed.call('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) => bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    bed = await startMatchingTestBed('matching_replica', { database: withReadReplica(cluster) });
  }, 60_000);

  afterAll(async () => {
    await cluster?.resumeReplay().catch(() => undefined);
    await bed?.close();
    await cluster?.stop();
  });

  it('reads the pool from the replica when it is current: what it has not replayed is not suggested yet', async () => {
    expect(bed.app.get(ReadReplica).configured).toBe(true);
    const place = bed.place();
    const viewer = await bed.member(place);
    const early = await bed.member(place);
    await cluster.caughtUp();
    expect(await bed.suggestedTo(viewer)).toEqual([early.userId]);

    await cluster.pauseReplay();
    const late = await bed.member(place); // profile-service's events, applied on the primary only
    expect(await bed.suggestedTo(viewer)).toEqual([early.userId]);
    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([early.userId, late.userId].sort());
  });

  it('with replay paused, a member’s like or pass is gone from their very next suggestions; another member reads the replica', async () => {
    const place = bed.place();
    const [viewer, other, a, b, c] = await Promise.all([1, 2, 3, 4, 5].map(() => bed.member(place)));
    await cluster.caughtUp();
    await cluster.pauseReplay();

    expect((await like(viewer, a)).status).toBe(200);
    expect(await bed.suggestedTo(viewer)).not.toContain(a.userId);
    expect((await pass(viewer, b)).status).toBe(200);
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([other.userId, c.userId].sort());

    // `other` wrote nothing: the replica answers, without what arrived since the pause.
    const newcomer = await bed.member(place);
    expect(await bed.suggestedTo(other)).not.toContain(newcomer.userId);
    // ... and once `other` swipes, their next read is the primary's, newcomer included.
    expect((await pass(other, c)).status).toBe(200);
    expect(await bed.suggestedTo(other)).toContain(newcomer.userId);

    await cluster.resumeReplay();
    await cluster.caughtUp();
    // Caught up: the replica serves the viewer again, their swipes in it.
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([other.userId, c.userId, newcomer.userId].sort());
  });

  it('reads the primary when the replica is down, with no error', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const [a, b] = await Promise.all([bed.member(place), bed.member(place)]);
    await cluster.kill('replica');
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([a.userId, b.userId].sort());
    expect((await like(viewer, a)).status).toBe(200);
    expect(await bed.suggestedTo(viewer)).toEqual([b.userId]);
    const fresh = await bed.member(place);
    expect((await bed.suggestedTo(viewer)).sort()).toEqual([b.userId, fresh.userId].sort());
  });
});
