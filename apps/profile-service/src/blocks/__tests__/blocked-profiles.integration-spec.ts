import { randomUUID } from 'node:crypto';
import request from 'supertest';
import {
  orderedPairOf,
  pairIdOf,
  ProfileMessages,
  SERVICES,
  type EventName,
  type UserBlockedPayload,
  type UserUnblockedPayload,
} from '@mate/contracts';
import { eventEnvelope } from '@mate/server-kit/testing';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(60_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

/**
 * Safety's pair events in profile-service (issue 10): while either of two members blocks the
 * other, each one's profile is refused to the other exactly as an unknown member's is.
 */
describe('profiles across a block (real PostgreSQL and Redis)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;
  const versions = new Map<string, number>();

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_blocks');
    server = bed.app.getHttpServer();
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  /** A member others can look at (verified, onboarding finished). */
  async function visibleMember(): Promise<Member> {
    const member = await bed.member();
    await bed.dataSource.query('UPDATE profiles SET onboarding_completed = true WHERE user_id = $1', [
      member.userId,
    ]);
    return member;
  }

  const view = (viewer: Member, id: string) =>
    request(server).get(`/api/profile/${id}`).set('Authorization', viewer.authorization);

  /** What `viewer` gets for `other`'s profile: the status and, for a refusal, its error and code. */
  async function seen(viewer: Member, id: string) {
    const res = await view(viewer, id);
    return res.status === 200
      ? { status: 200, userId: (res.body as { userId: string }).userId }
      : { status: res.status, error: res.body.error, code: res.body.code };
  }

  /** The pair's state after the event, as safety-service publishes it, with the pair's next version. */
  function pairEvent<N extends Extract<EventName, 'user.blocked' | 'user.unblocked'>>(
    name: N,
    actor: Member,
    other: Member,
    blockedBy: Member[],
    version?: number,
  ) {
    const pairId = pairIdOf(actor.userId, other.userId);
    const v = version ?? (versions.get(pairId) ?? 0) + 1;
    versions.set(pairId, Math.max(v, versions.get(pairId) ?? 0));
    const state = {
      pairId,
      userIds: orderedPairOf(actor.userId, other.userId),
      blockedBy: blockedBy.map((m) => m.userId),
      blockerId: actor.userId,
      blockedId: other.userId,
    };
    const payload: UserBlockedPayload | UserUnblockedPayload =
      name === 'user.blocked'
        ? { ...state, endedMatchId: null, blockedAt: new Date().toISOString() }
        : { ...state, unblockedAt: new Date().toISOString() };
    return bed.consumer.apply({
      ...eventEnvelope(SERVICES.safety, name, payload as never),
      aggregateType: 'pair',
      aggregateId: pairId,
      aggregateVersion: v,
    });
  }
  const block = (blocker: Member, blocked: Member, blockedBy = [blocker], version?: number) =>
    pairEvent('user.blocked', blocker, blocked, blockedBy, version);
  const unblock = (blocker: Member, blocked: Member, blockedBy: Member[] = [], version?: number) =>
    pairEvent('user.unblocked', blocker, blocked, blockedBy, version);

  it("refuses each member of a blocked pair the other's profile, exactly as an unknown member's", async () => {
    const [ana, ben, cleo] = await Promise.all([visibleMember(), visibleMember(), visibleMember()]);
    expect(await seen(ana, ben.userId)).toEqual({ status: 200, userId: ben.userId });
    expect(await seen(ben, ana.userId)).toEqual({ status: 200, userId: ana.userId });

    expect(await block(ana, ben)).toBe('handled');
    const unknown = await seen(ana, randomUUID());
    expect(unknown).toEqual({
      status: 404,
      error: ProfileMessages.profileNotFound,
      code: expect.any(String),
    });
    expect(await seen(ana, ben.userId)).toEqual(unknown);
    expect(await seen(ben, ana.userId)).toEqual(unknown);
    // An id in upper case is the same member.
    expect(await seen(ben, ana.userId.toUpperCase())).toEqual(unknown);
    // Everyone else still sees both, and both still see their own profile.
    expect(await seen(cleo, ana.userId)).toEqual({ status: 200, userId: ana.userId });
    expect(await seen(cleo, ben.userId)).toEqual({ status: 200, userId: ben.userId });
    expect(await seen(ana, cleo.userId)).toEqual({ status: 200, userId: cleo.userId });
    await request(server).get('/api/profile/me').set('Authorization', ben.authorization).expect(200);
  });

  it('shows the profiles again once neither blocks the other, not before', async () => {
    const [ana, ben] = await Promise.all([visibleMember(), visibleMember()]);
    await block(ana, ben);
    await block(ben, ana, [ana, ben]);
    // Ana lifts her block; Ben's still stands.
    expect(await unblock(ana, ben, [ben])).toBe('handled');
    expect((await seen(ana, ben.userId)).status).toBe(404);
    expect((await seen(ben, ana.userId)).status).toBe(404);
    expect(await unblock(ben, ana, [])).toBe('handled');
    expect(await seen(ana, ben.userId)).toEqual({ status: 200, userId: ben.userId });
    expect(await seen(ben, ana.userId)).toEqual({ status: 200, userId: ana.userId });
  });

  it('applies only the newest version of a pair (the events carry the whole state)', async () => {
    const [ana, ben] = await Promise.all([visibleMember(), visibleMember()]);
    // The unblock (version 2) overtook the block (version 1): the block is stale.
    expect(await unblock(ana, ben, [], 2)).toBe('handled');
    expect(await block(ana, ben, [ana], 1)).toBe('stale');
    expect((await seen(ben, ana.userId)).status).toBe(200);
    // A block (version 3) and then an older unblock (version 2 again, another event): still blocked.
    expect(await block(ben, ana, [ben], 3)).toBe('handled');
    expect(await unblock(ben, ana, [], 2)).toBe('stale');
    expect((await seen(ana, ben.userId)).status).toBe(404);
    // An unblock that says the other still blocks keeps the pair blocked (whole state).
    expect(await unblock(ana, ben, [ben], 4)).toBe('handled');
    expect((await seen(ana, ben.userId)).status).toBe(404);
  });

  it('refuses a pair event that does not name two members, and changes nothing', async () => {
    const ana = await visibleMember();
    const pairId = pairIdOf(ana.userId, ana.userId);
    for (const userIds of [[ana.userId, ana.userId], [ana.userId], [ana.userId, 'nobody']]) {
      await expect(
        bed.consumer.apply({
          ...eventEnvelope(SERVICES.safety, 'user.blocked', {
            pairId,
            userIds: userIds as [string, string],
            blockedBy: [ana.userId],
            blockerId: ana.userId,
            blockedId: ana.userId,
            endedMatchId: null,
            blockedAt: new Date().toISOString(),
          }),
          aggregateType: 'pair',
          aggregateId: pairId,
          aggregateVersion: 1,
        }),
        // Recorded as unreadable by the kit's consumer (never retried) and never handled.
      ).resolves.toBe('unreadable');
    }
    expect(
      await bed.dataSource.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [ana.userId]),
    ).toEqual([]);
  });
});
