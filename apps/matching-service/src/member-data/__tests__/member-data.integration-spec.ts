import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import {
  INTERNAL_TOKEN_HEADER,
  MatchingMessages,
  memberExportPath,
  type LikeResultDto,
  type MatchingExportPart,
} from '@mate/contracts';
import { PRIOR_PARAMS, type MemberStats } from '@mate/matching-model';
import { BaseServiceEnv, REDIS } from '@mate/server-kit';
import { columnsHolding } from '@mate/testing';
import { waitFor } from '@mate/server-kit/testing';
import { startMatchingTestBed, type MatchingTestBed, type TestMember } from '../../__tests__/matching-test-bed';
import { ScoringRepository } from '../../scoring/scoring.repository';
import { MatchingErasure } from '../matching-erasure';

jest.setTimeout(120_000);

/**
 * A member's data in matching-service (issue 12, docs/adr/0016-member-data.md): their part of the
 * export, and their erasure on user.deleted (every table, as either party; counters; kit traces),
 * including writes by other members racing it.
 */
describe('member data in matching-service (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  const internal = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_member_data');
  });

  afterAll(async () => {
    await bed?.close();
  });

  const like = (from: TestMember, to: TestMember | string) =>
    bed.call<LikeResultDto>('POST', `/api/matches/like/${typeof to === 'string' ? to : to.userId}`, { token: from.token });
  const pass = (from: TestMember, to: TestMember | string) =>
    bed.call('POST', `/api/matches/pass/${typeof to === 'string' ? to : to.userId}`, { token: from.token });
  const exportOf = (userId: string, headers: Record<string, string> = internal) =>
    bed.call<MatchingExportPart>('GET', memberExportPath(userId), { headers });
  const deleted = (userId: string) => bed.deliver('user.deleted', { userId, deletedAt: new Date().toISOString() });

  /** Every column of every table, as text, that contains the id (the verify command's check). */
  const tracesOf = (userId: string) => columnsHolding(bed.dataSource, userId);

  /** matching-service's Redis keys naming the member (its Discover counters; sessions are auth's). */
  const redisKeysOf = (userId: string) => bed.app.get<Redis>(REDIS).keys(`${bed.env.KEY_PREFIX}:matching:*${userId}*`);

  async function factorFor(userId: string, version = 'fit-member-data') {
    await bed.dataSource.query(
      `INSERT INTO member_factor (user_id, model_version, taste, appeal, likes_given, swipes_given, likes_received, swipes_received)
       VALUES ($1, $2, '{0.5,-0.25}', '{0.125,1}', 2, 3, 1, 4)
       ON CONFLICT (user_id) DO NOTHING`,
      [userId, version],
    );
  }

  /** Ana and five members around her: every kind of row naming her, as either party. */
  async function world() {
    const place = bed.place();
    const [ana, ben, cleo, dan, eve, fay] = [
      await bed.member({ ...place, name: 'Ana' }),
      await bed.member({ ...place, name: 'Ben' }),
      await bed.member({ ...place, name: 'Cleo' }),
      await bed.member({ ...place, name: 'Dan' }),
      await bed.member({ ...place, name: 'Eve' }),
      await bed.member({ ...place, name: 'Fay' }),
    ];
    // Discover shown both ways (impressions with Ana as viewer and as the member shown).
    await bed.suggestions(ana);
    await bed.suggestions(eve);
    expect((await like(ana, ben)).body).toEqual({ matched: false });
    expect((await pass(ana, cleo)).status).toBe(200);
    expect((await like(dan, ana)).body).toEqual({ matched: false });
    const match = (await like(ana, dan)).body as { matched: true; matchId: string };
    expect(match.matched).toBe(true);
    expect((await like(eve, ana)).status).toBe(200);
    expect((await pass(fay, ana)).status).toBe(200);
    // Others' own rows, which must stay.
    expect((await like(ben, cleo)).status).toBe(200);
    expect(await bed.block(ana, fay)).toBe('handled');
    expect(await bed.block(cleo, ana)).toBe('handled');
    await factorFor(ana.userId);
    await factorFor(ben.userId);
    return { ana, ben, cleo, dan, eve, fay, matchId: match.matchId };
  }

  describe('export part', () => {
    it("holds the member's likes, passes, matches, the count of likes received, what Discover showed and the model's profile", async () => {
      const { ana, ben, cleo, dan, matchId } = await world();
      const res = await exportOf(ana.userId);
      expect(res.status).toBe(200);
      const part = res.body;
      expect(part.likesGiven.map((l) => l.userId).sort()).toEqual([ben.userId, dan.userId].sort());
      expect(part.passes.map((p) => p.userId)).toEqual([cleo.userId]);
      expect(part.matches).toEqual([{ matchId, userId: dan.userId, createdAt: expect.any(String), endedAt: null }]);
      // Dan and Eve liked her; Fay's pass is not a like. Who liked her is not told.
      expect(part.likesReceivedCount).toBe(2);
      expect(part.suggestionsShown?.length).toBeGreaterThan(0);
      for (const shown of part.suggestionsShown ?? [])
        expect(shown).toEqual({ userId: expect.any(String), score: expect.any(Number), modelVersion: expect.any(String), servedAt: expect.any(String) });
      expect(part.rankingProfile).toEqual({
        modelVersion: 'fit-member-data',
        likesGiven: 2,
        swipesGiven: 3,
        likesReceived: 1,
        swipesReceived: 4,
        taste: [0.5, -0.25],
        appeal: [0.125, 1],
        updatedAt: expect.any(String),
      });
      for (const at of [...part.likesGiven, ...part.passes, ...part.matches].map((x) => x.createdAt))
        expect(Number.isNaN(Date.parse(at))).toBe(false);
    });

    it('answers an empty part for an unknown member, and only to the platform’s services', async () => {
      expect((await exportOf(randomUUID())).body).toEqual({
        likesGiven: [],
        passes: [],
        matches: [],
        likesReceivedCount: 0,
        suggestionsShown: [],
        rankingProfile: null,
      });
      const member = await bed.member();
      expect((await exportOf(member.userId, {})).status).toBe(403);
      expect((await exportOf(member.userId, { authorization: `Bearer ${member.token}` })).status).toBe(403);
      expect((await exportOf('nobody')).status).toBe(400);
    });
  });

  describe('erasure (user.deleted)', () => {
    it('leaves no trace of the member in any table or in Redis, twice; the others keep their own rows', async () => {
      const { ana, ben, cleo } = await world();
      const before = await tracesOf(ana.userId);
      expect(before).toEqual(
        expect.arrayContaining([
          'candidate.user_id',
          'swipe.swiper_id',
          'swipe.target_id',
          'impression.viewer_id',
          'impression.target_id',
          'member_factor.user_id',
          'kit_pair.blocked_by',
          'outbox.body',
          'applied_version.aggregate_id',
        ]),
      );
      // A match keeps its pair in id order: Ana is user_a or user_b as the random ids fall.
      expect(before.filter((column) => column.startsWith('match.user_'))).toHaveLength(1);
      expect(await redisKeysOf(ana.userId)).not.toEqual([]);

      expect(await deleted(ana.userId)).toBe('handled');
      expect(await tracesOf(ana.userId)).toEqual([]);
      expect(await redisKeysOf(ana.userId)).toEqual([]);

      // Ben keeps his like of Cleo, his candidate row and his model factors.
      expect(await bed.dataSource.query('SELECT target_id FROM swipe WHERE swiper_id = $1', [ben.userId])).toEqual([
        { target_id: cleo.userId },
      ]);
      expect(await bed.dataSource.query('SELECT 1 FROM member_factor WHERE user_id = $1', [ben.userId])).toHaveLength(1);
      expect((await bed.call('GET', '/api/matches/my-matches', { token: ben.token })).status).toBe(200);

      // A second delivery (a new event id: a redelivery after a lost acknowledgement) is fine.
      expect(await deleted(ana.userId)).toBe('handled');
      expect(await tracesOf(ana.userId)).toEqual([]);
    });

    it('drops later events naming the member: no candidate, no block, no preferences come back', async () => {
      const { ana, ben } = await world();
      expect(await deleted(ana.userId)).toBe('handled');
      expect(await bed.updateProfile(ana.userId, { name: 'Ana again' })).toBe('erased');
      expect(await bed.updatePreferences(ana.userId, { maxDistance: 100 })).toBe('erased');
      expect(await bed.unblock(ana, ben, [ana])).toBe('erased');
      expect(await tracesOf(ana.userId)).toEqual([]);
    });

    it('a like or pass of the deleted member is refused as for an unknown member; rewind has nothing to bring back', async () => {
      const { ana, cleo, fay } = await world();
      expect(await deleted(ana.userId)).toBe('handled');
      for (const res of [await like(cleo, ana), await pass(cleo, ana)]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: MatchingMessages.memberNotFound });
      }
      // Fay had passed Ana: the pass is gone with her, so there is nothing to rewind to.
      const rewind = await bed.call('POST', '/api/matches/rewind', { token: fay.token });
      expect(rewind.status).toBe(404);
      expect(await tracesOf(ana.userId)).toEqual([]);
    });

    describe('writes by other members racing the erasure', () => {
      /** Runs the erasure in a transaction held open until `during` has settled, as a slow consumer would. */
      async function eraseHoldingTransaction<T>(userId: string, during: () => Promise<T>): Promise<T> {
        const runner = bed.dataSource.createQueryRunner();
        await runner.connect();
        await runner.startTransaction();
        try {
          await bed.app.get(MatchingErasure).erase(runner.manager, { userId, deletedAt: new Date().toISOString() });
          const pending = during();
          // The racing write waits on a lock the open erasure holds.
          await waitFor(
            async () => ((await bed.dataSource.query('SELECT 1 FROM pg_locks WHERE NOT granted')) as unknown[]).length > 0 || undefined,
            { what: 'the racing write to wait for the erasure' },
          );
          await runner.commitTransaction();
          return await pending;
        } catch (e) {
          await runner.rollbackTransaction().catch(() => undefined);
          throw e;
        } finally {
          await runner.release();
        }
      }

      it('a like or a pass waits for the erasure and then finds no member', async () => {
        const place = bed.place();
        const [ana, ben, cleo] = [await bed.member(place), await bed.member(place), await bed.member(place)];
        const liked = await eraseHoldingTransaction(ana.userId, () => like(ben, ana));
        expect(liked.status).toBe(404);
        expect(await tracesOf(ana.userId)).toEqual([]);
        const passed = await eraseHoldingTransaction(cleo.userId, () => pass(ben, cleo));
        expect(passed.status).toBe(404);
        expect(await tracesOf(cleo.userId)).toEqual([]);
      });

      it('an impression written after the erasure leaves the member out', async () => {
        const place = bed.place();
        const [ana, ben] = [await bed.member(place), await bed.member(place)];
        expect(await bed.suggestedTo(ben)).toContain(ana.userId);
        await bed.dataSource.query('DELETE FROM impression WHERE viewer_id = $1', [ben.userId]);
        await eraseHoldingTransaction(ana.userId, () => bed.suggestions(ben));
        expect(await tracesOf(ana.userId)).toEqual([]);
      });

      it('a model published while the erasure runs keeps no factors of the member', async () => {
        const place = bed.place();
        const [ana, ben] = [await bed.member(place), await bed.member(place)];
        const stats = (n: number): MemberStats => ({
          taste: [n],
          appeal: [n],
          likesGiven: n,
          swipesGiven: n,
          likesReceived: n,
          swipesReceived: n,
        });
        const factors = new Map([
          [ana.userId, stats(1)],
          [ben.userId, stats(2)],
        ]);
        const metrics = { trainedOn: 0, heldOut: 0, likeRate: 0, logLoss: 0, auc: 0, priorLogLoss: 0, priorAuc: 0 };
        const version = `fit-race-${Date.now()}`;
        await eraseHoldingTransaction(ana.userId, () =>
          bed.app.get(ScoringRepository).publish({ ...PRIOR_PARAMS, version }, metrics, factors),
        );
        expect(await tracesOf(ana.userId)).toEqual([]);
        expect(await bed.dataSource.query('SELECT user_id FROM member_factor WHERE model_version = $1', [version])).toEqual([
          { user_id: ben.userId },
        ]);
      });
    });
  });
});
