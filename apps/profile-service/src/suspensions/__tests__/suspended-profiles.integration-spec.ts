import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ProfileMessages, SERVICES, type EventName, type EventPayloads } from '@mate/contracts';
import { eventEnvelope } from '@mate/server-kit/testing';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(60_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

/**
 * auth-service's suspension in profile-service (issue 13): while a member is suspended their
 * profile is refused to every other member exactly as an unknown member's is; their own stays.
 */
describe('profiles of a suspended member (real PostgreSQL and Redis)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_suspension');
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

  async function seen(viewer: Member, id: string) {
    const res = await request(server).get(`/api/profile/${id}`).set('Authorization', viewer.authorization);
    return res.status === 200
      ? { status: 200, userId: (res.body as { userId: string }).userId }
      : { status: res.status, error: res.body.error, code: res.body.code };
  }

  /** One of auth-service's events on the member's `user` aggregate, with that aggregate's version. */
  function userEvent<N extends Extract<EventName, 'user.suspended' | 'user.unsuspended'>>(
    name: N,
    payload: EventPayloads[N],
    version: number,
  ) {
    return bed.consumer.apply({
      ...eventEnvelope(SERVICES.auth, name, payload),
      aggregateType: 'user',
      aggregateId: payload.userId,
      aggregateVersion: version,
    });
  }
  const suspend = (member: Member, version: number) =>
    userEvent(
      'user.suspended',
      { userId: member.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() },
      version,
    );
  const unsuspend = (member: Member, version: number) =>
    userEvent(
      'user.unsuspended',
      { userId: member.userId, suspended: false, unsuspendedAt: new Date().toISOString() },
      version,
    );

  it("answers other members 404 for a suspended member's profile, exactly as an unknown member's; their own stays; unsuspend shows it again", async () => {
    const [ana, ben] = await Promise.all([visibleMember(), visibleMember()]);
    expect(await seen(ana, ben.userId)).toEqual({ status: 200, userId: ben.userId });

    expect(await suspend(ben, 10)).toBe('handled');
    const unknown = await seen(ana, randomUUID());
    expect(unknown).toEqual({
      status: 404,
      error: ProfileMessages.profileNotFound,
      code: expect.any(String),
    });
    expect(await seen(ana, ben.userId)).toEqual(unknown);
    expect(await seen(ana, ben.userId.toUpperCase())).toEqual(unknown);
    // The suspended member still sees others and their own profile.
    expect(await seen(ben, ana.userId)).toEqual({ status: 200, userId: ana.userId });
    await request(server).get('/api/profile/me').set('Authorization', ben.authorization).expect(200);

    expect(await unsuspend(ben, 11)).toBe('handled');
    expect(await seen(ana, ben.userId)).toEqual({ status: 200, userId: ben.userId });
  });

  it('skips a late user.suspended older than the unsuspend already applied', async () => {
    const [ana, ben] = await Promise.all([visibleMember(), visibleMember()]);
    expect(await unsuspend(ben, 12)).toBe('handled');
    expect(await suspend(ben, 11)).toBe('stale');
    expect(await seen(ana, ben.userId)).toEqual({ status: 200, userId: ben.userId });
  });

  it("forgets a member's suspension when the member is erased", async () => {
    const ben = await visibleMember();
    await suspend(ben, 10);
    expect(
      await bed.consumer.apply(
        eventEnvelope(SERVICES.auth, 'user.deleted', {
          userId: ben.userId,
          deletedAt: new Date().toISOString(),
        }),
      ),
    ).toBe('handled');
    expect(
      await bed.dataSource.query('SELECT 1 FROM kit_member_suspension WHERE user_id = $1', [ben.userId]),
    ).toEqual([]);
  });
});
