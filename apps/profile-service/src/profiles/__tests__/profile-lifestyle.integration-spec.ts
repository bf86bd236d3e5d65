import request from 'supertest';
import {
  DRINKING_VALUES,
  EXERCISE_VALUES,
  LIFESTYLE_FIELDS,
  PETS_VALUES,
  SMOKING_VALUES,
  type LifestyleFields,
} from '@mate/contracts';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

const NOT_SAID: LifestyleFields = { smoking: null, drinking: null, exercise: null, pets: null };
const ALL_SET: LifestyleFields = { smoking: 'never', drinking: 'socially', exercise: 'daily', pets: 'multiple' };

/** Issue 8 groundwork: the lifestyle fields spec 001 §3's filters apply to, on the profile. */
describe('lifestyle fields on the profile (smoking, drinking, exercise, pets)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_lifestyle');
    server = bed.app.getHttpServer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const me = (member: Member) =>
    request(server).get(`/api/profile/me?t=${Date.now()}`).set('Authorization', member.authorization).expect(200);

  async function lifestyleRow(userId: string): Promise<LifestyleFields> {
    const rows: LifestyleFields[] = await bed.dataSource.query(
      'SELECT smoking, drinking, exercise, pets FROM profiles WHERE user_id = $1',
      [userId],
    );
    return rows[0];
  }

  const lastUpdate = async (userId: string) =>
    (await bed.eventsOf(userId)).filter((e) => e.name === 'profile.updated').at(-1)?.payload;

  it('starts as not said (null) in GET /api/profile/me and in profile.updated', async () => {
    const member = await bed.member();
    expect((await me(member)).body).toMatchObject(NOT_SAID);
    expect(await lastUpdate(member.userId)).toMatchObject(NOT_SAID);
  });

  it('sets all four: answered by PUT and GET /me, stored, and published in profile.updated', async () => {
    const member = await bed.member();
    const res = await bed.putProfile(member, ALL_SET).expect(200);
    expect(res.body).toMatchObject(ALL_SET);
    expect((await me(member)).body).toMatchObject(ALL_SET);
    expect(await lifestyleRow(member.userId)).toEqual(ALL_SET);
    expect(await lastUpdate(member.userId)).toMatchObject({ userId: member.userId, ...ALL_SET });
  });

  it('clears a field sent as null (or empty text), leaves the ones not sent, and publishes the change', async () => {
    const member = await bed.member();
    await bed.putProfile(member, ALL_SET).expect(200);
    const res = await bed.putProfile(member, { smoking: null, pets: '' }).expect(200);
    expect(res.body).toMatchObject({ smoking: null, drinking: 'socially', exercise: 'daily', pets: null });
    expect(await lifestyleRow(member.userId)).toEqual({
      smoking: null,
      drinking: 'socially',
      exercise: 'daily',
      pets: null,
    });
    expect(await lastUpdate(member.userId)).toMatchObject({
      smoking: null,
      drinking: 'socially',
      exercise: 'daily',
      pets: null,
    });

    const events = (await bed.eventsOf(member.userId)).length;
    await bed.putProfile(member, { drinking: 'socially' }).expect(200);
    expect((await bed.eventsOf(member.userId)).length).toBe(events);
  });

  it.each([
    ...SMOKING_VALUES.map((v) => ['smoking', v]),
    ...DRINKING_VALUES.map((v) => ['drinking', v]),
    ...EXERCISE_VALUES.map((v) => ['exercise', v]),
    ...PETS_VALUES.map((v) => ['pets', v]),
  ])('accepts %s = %s (a stored value of spec 001 §3)', async (field, value) => {
    const member = await bed.member();
    expect((await bed.putProfile(member, { [field]: value }).expect(200)).body[field]).toBe(value);
    expect((await lifestyleRow(member.userId))[field as keyof LifestyleFields]).toBe(value);
  });

  it.each([
    ['smoking', 'sometimes', /^Smoking must be one of: never, socially, regularly, prefer_not_to_say$/],
    ['smoking', 'Never', /^Smoking must be one of/],
    ['smoking', 'prefer-not-to-say', /^Smoking must be one of/],
    ['drinking', 'daily', /^Drinking must be one of: never, socially, regularly, prefer_not_to_say$/],
    ['drinking', true, /^Drinking must be one of/],
    ['exercise', 'socially', /^Exercise must be one of: never, sometimes, regularly, daily$/],
    ['exercise', 3, /^Exercise must be one of/],
    ['pets', 'Dog', /^Pets must be one of: none, dog, cat, other, multiple$/],
    ['pets', ['dog', 'cat'], /^Pets must be one of/],
    ['pets', { value: 'dog' }, /^Pets must be one of/],
  ] as [string, unknown, RegExp][])('refuses %s = %j with a 400 and writes nothing', async (field, value, error) => {
    const member = await bed.member();
    await bed.putProfile(member, { smoking: 'regularly' }).expect(200);
    const events = (await bed.eventsOf(member.userId)).length;
    const res = await bed.putProfile(member, { exercise: 'daily', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(error) });
    expect(await lifestyleRow(member.userId)).toEqual({ ...NOT_SAID, smoking: 'regularly' });
    expect((await bed.eventsOf(member.userId)).length).toBe(events);
  });

  it('is refused by the table too: a value written around the API never gets stored', async () => {
    const member = await bed.member();
    for (const field of LIFESTYLE_FIELDS) {
      await expect(
        bed.dataSource.query(`UPDATE profiles SET ${field} = 'sometimes-ish' WHERE user_id = $1`, [member.userId]),
      ).rejects.toThrow(new RegExp(`profiles_${field}_check`));
    }
    expect(await lifestyleRow(member.userId)).toEqual(NOT_SAID);
  });

  it("shows the fields in another member's public profile", async () => {
    const viewer = await bed.member();
    const other = await bed.member({ name: 'Zoe', age: 33 });
    await bed.putProfile(other, { smoking: 'prefer_not_to_say', exercise: 'sometimes', pets: 'dog' }).expect(200);
    await bed.dataSource.query('UPDATE profiles SET onboarding_completed = true WHERE user_id = $1', [other.userId]);
    const res = await request(server)
      .get(`/api/profile/${other.userId}`)
      .set('Authorization', viewer.authorization)
      .expect(200);
    expect(res.body).toMatchObject({
      userId: other.userId,
      smoking: 'prefer_not_to_say',
      drinking: null,
      exercise: 'sometimes',
      pets: 'dog',
    });
  });
});
