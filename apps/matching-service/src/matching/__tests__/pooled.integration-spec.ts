import type { LikeResultDto } from '@mate/contracts';
import { isTransactionPooled } from '@mate/server-kit';
import { testServerPort, throughPgBouncer } from '@mate/server-kit/testing';
import { startPgBouncer, type OwnPgBouncer } from '@mate/testing';
import { startMatchingTestBed, type MatchingTestBed, type TestMember } from '../../__tests__/matching-test-bed';

/** Server connections PgBouncer keeps per database: fewer than the service's pool (10) and the clients below. */
const SERVER_CONNECTIONS = 2;

describe('matching through PgBouncer in transaction pooling (DATABASE_POOLING=transaction)', () => {
  let bouncer: OwnPgBouncer;
  let bed: MatchingTestBed;
  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember) => bed.call('POST', `/api/matches/pass/${to.userId}`, { token: from.token });

  beforeAll(async () => {
    bouncer = await startPgBouncer({
      upstreamPort: await testServerPort(),
      databases: '*',
      poolMode: 'transaction',
      poolSize: SERVER_CONNECTIONS,
    });
    bed = await startMatchingTestBed('matching_pooled', { database: throughPgBouncer(bouncer) });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
    await bouncer?.stop();
  });

  it('likes, passes, matches and suggestions of members acting at once, each swipe once', async () => {
    expect(isTransactionPooled(bed.dataSource)).toBe(true);
    const place = bed.place();
    const members = await Promise.all(Array.from({ length: 8 }, () => bed.member(place)));
    const [first, ...others] = members;
    // Everyone loads suggestions at once, several times: named statements would now be prepared
    // on some server connections and not others.
    const loads = await Promise.all(members.flatMap((m) => [bed.suggestedTo(m), bed.suggestedTo(m)]));
    for (const ids of loads) expect(ids).toHaveLength(members.length - 1);

    // Each of the others likes `first` and `first` answers: half likes back, half passes, all at once.
    const answers = await Promise.all(
      others.flatMap((m, i) => [like(m, first), i % 2 === 0 ? like(first, m) : pass(first, m)]),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const matched = answers.filter((a) => (a.body as LikeResultDto).matched === true);
    // A pair's two likes in either order make one match, told to the second liker.
    expect(matched).toHaveLength(Math.ceil(others.length / 2));

    expect(await bed.suggestedTo(first)).toEqual([]);
    for (const m of others) expect(await bed.suggestedTo(m)).not.toContain(first.userId);
    const [{ likes }] = await bed.dataSource.query<{ likes: number }[]>(
      'SELECT count(*)::int AS likes FROM swipe WHERE liked',
    );
    expect(likes).toBe(others.length + Math.ceil(others.length / 2));
  });
});
