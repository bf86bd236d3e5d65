import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { AuthMessages, ErrorCode } from '@mate/contracts';
import { listControllerRoutes } from '@mate/server-kit';
import { startProfileTestBed, type ProfileTestBed } from './test-app';

jest.setTimeout(120_000);

/**
 * Issue 7, item 7: a new, unverified account could upload photos, complete onboarding and read
 * verified members' profiles, because only the browser checked. The server now refuses it (403
 * EMAIL_NOT_VERIFIED) on every route but its own profile, which the verify-email prompt reads.
 */
describe('profile-service refuses members whose email is not verified', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;
  let picture: Buffer;
  type Member = Awaited<ReturnType<ProfileTestBed['member']>>;
  /** A verified member who finished onboarding: the profile others may read. */
  let visible: Member;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_unverified');
    server = bed.app.getHttpServer();
    picture = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3264c8' } }).jpeg().toBuffer();
    visible = await bed.member({ name: 'Vera' });
    await request(server).post('/api/profile/me/complete-onboarding').set('Authorization', visible.authorization).expect(200);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const refusal = { error: AuthMessages.emailNotVerified, code: ErrorCode.EmailNotVerified };
  const upload = (member: Member) =>
    request(server)
      .post('/api/photos/upload?context=onboarding')
      .set('Authorization', member.authorization)
      .attach('photo', picture, { filename: 'me.jpg', contentType: 'image/jpeg' });
  const completeOnboarding = (member: Member) =>
    request(server).post('/api/profile/me/complete-onboarding').set('Authorization', member.authorization).send({});
  const readOther = (member: Member) => request(server).get(`/api/profile/${visible.userId}`).set('Authorization', member.authorization);

  it('refuses an unverified member photo uploads, onboarding and other members’ profiles, and stores nothing', async () => {
    const member = await bed.member({ verified: false });
    for (const res of [await upload(member), await completeOnboarding(member), await readOther(member)]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject(refusal);
    }
    const [{ photos }] = await bed.dataSource.query('SELECT count(*)::int AS photos FROM photos WHERE user_id = $1', [member.userId]);
    expect(photos).toBe(0);
    const [profile] = await bed.dataSource.query('SELECT onboarding_completed FROM profiles WHERE user_id = $1', [member.userId]);
    expect(profile).toEqual({ onboarding_completed: false });
  });

  it('still shows an unverified member their own profile, which says it is not verified', async () => {
    const member = await bed.member({ verified: false });
    const res = await request(server).get('/api/profile/me').set('Authorization', member.authorization).expect(200);
    expect(res.body).toMatchObject({ isVerified: false, onboardingCompleted: false });
  });

  it('refuses an unverified member on every other route the service serves', async () => {
    const member = await bed.member({ verified: false });
    const routes = listControllerRoutes(bed.app).filter((r) => !r.isPublic && !r.allowsUnverified);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const path = route.path.replace(/:\w+/g, randomUUID());
      const res = await (request(server) as unknown as Record<string, (url: string) => request.Test>)
        [route.method](path)
        .set('Authorization', member.authorization);
      expect({ route: `${route.method} ${route.path}`, status: res.status, body: res.body }).toMatchObject({
        status: 403,
        body: refusal,
      });
    }
    expect(listControllerRoutes(bed.app).filter((r) => !r.isPublic && r.allowsUnverified).map((r) => `${r.method} ${r.path}`)).toEqual([
      'get /api/profile/me',
    ]);
  });

  it('lets a verified member do the same', async () => {
    const member = await bed.member();
    expect((await upload(member)).status).toBe(201);
    expect((await completeOnboarding(member)).status).toBe(200);
    const other = await readOther(member);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ name: 'Vera' });
  });
});
