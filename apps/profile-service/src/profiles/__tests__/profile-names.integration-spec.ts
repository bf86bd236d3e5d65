import sharp from 'sharp';
import request from 'supertest';
import { PERSON_NAME_MESSAGE } from '@mate/server-kit';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(120_000);

/**
 * Issue 7, item 6: a name reaches other members and official emails ("Hi <name>,"), where mail
 * clients turn bare URLs into links. The profile form and onboarding refuse links and control or
 * format characters in names, as sign-up does.
 */
describe('profile names refuse links and special characters', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_names');
    server = bed.app.getHttpServer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const ONBOARDING = { age: 29, gender: 'female', bio: 'Climber, cook and avid reader of maps.', interests: ['Travel'], lookingFor: 'long-term', location: 'Lisbon, Portugal' };
  const refused = [
    'Security team: your account is at risk, re-login at https://evil.example',
    'Security team: re-login at mate-support.com',
    'www.evil',
    'help@evil',
    'Ana\u202Emoc.live',
    'Ana\u200B',
    'Ana\nClick here',
  ];

  it.each(refused)('refuses %j in the profile form and in onboarding, and keeps the name', async (name) => {
    const member = await bed.member({ name: 'Ana' });
    const form = await request(server).put('/api/profile/me').set('Authorization', member.authorization).send({ name });
    expect(form.status).toBe(400);
    expect(form.body).toMatchObject({ error: PERSON_NAME_MESSAGE });
    const onboarding = await request(server)
      .post('/api/profile/me/complete-onboarding')
      .set('Authorization', member.authorization)
      .send({ ...ONBOARDING, name });
    expect(onboarding.status).toBe(400);
    expect(onboarding.body).toMatchObject({ error: PERSON_NAME_MESSAGE });
    const [row] = await bed.dataSource.query('SELECT name, onboarding_completed FROM profiles WHERE user_id = $1', [member.userId]);
    expect(row).toEqual({ name: 'Ana', onboarding_completed: false });
  });

  it('accepts names as people write them', async () => {
    const member = await bed.member({ name: 'Ana' });
    for (const name of ["Seán O'Brien", 'J.R.R. Tolkien', 'José María de la Cruz', '李小龍']) {
      const res = await request(server).put('/api/profile/me').set('Authorization', member.authorization).send({ name });
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(res.body.name).toBe(name);
    }
    const picture = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c86432' } }).jpeg().toBuffer();
    await request(server)
      .post('/api/photos/upload?context=onboarding')
      .set('Authorization', member.authorization)
      .attach('photo', picture, { filename: 'me.jpg', contentType: 'image/jpeg' })
      .expect(201);
    const done = await request(server)
      .post('/api/profile/me/complete-onboarding')
      .set('Authorization', member.authorization)
      .send({ ...ONBOARDING, name: 'Anne-Marie' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ name: 'Anne-Marie', onboardingCompleted: true });
  });
});
