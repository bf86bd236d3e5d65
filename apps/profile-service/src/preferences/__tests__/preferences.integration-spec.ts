import request from 'supertest';
import {
  AuthMessages,
  DEFAULT_FILTER_PREFERENCES,
  DEFAULT_PREFERENCES,
  EDUCATION_OPTIONS,
  EXERCISE_OPTIONS,
  FILTER_GENDER_OPTIONS,
  INTERESTED_IN_OPTIONS,
  PETS_OPTIONS,
  ProfileErrorCode,
  ProfileMessages,
  RELATIONSHIP_GOAL_OPTIONS,
  SMOKING_DRINKING_OPTIONS,
  type FilterPreferencesDto,
} from '@mate/contracts';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

const FILTERS: FilterPreferencesDto = {
  minAge: 25,
  maxAge: 40,
  maxDistance: 30,
  minHeight: 150,
  maxHeight: 190,
  genderPreference: ['female', 'non-binary'],
  educationPreference: ['bachelor', 'master'],
  relationshipGoalPreference: ['long_term', 'marriage'],
  smokingPreference: ['never'],
  drinkingPreference: ['socially', 'prefer_not_to_say'],
  exercisePreference: ['daily'],
  petsPreference: ['dog', 'multiple'],
  requiredInterests: ['Hiking'],
};

describe('preferences (real PostgreSQL and Redis)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    bed = await startProfileTestBed('preferences');
    server = bed.app.getHttpServer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const getMatch = (m: Member) =>
    request(server).get('/api/preferences/me').set('Authorization', m.authorization);
  const putMatch = (m: Member, body: unknown) =>
    request(server)
      .put('/api/preferences/me')
      .set('Authorization', m.authorization)
      .send(body as object);
  const getFilters = (m: Member) =>
    request(server).get('/api/profile/me/preferences').set('Authorization', m.authorization);
  const putFilters = (m: Member, body: unknown) =>
    request(server)
      .put('/api/profile/me/preferences')
      .set('Authorization', m.authorization)
      .send(body as object);

  describe('match preferences (/api/preferences/me)', () => {
    it('answers the defaults until something is saved', async () => {
      const member = await bed.member();
      expect((await getMatch(member).expect(200)).body).toEqual(DEFAULT_PREFERENCES);
      expect((await getFilters(member).expect(200)).body).toEqual(DEFAULT_FILTER_PREFERENCES);
    });

    it('saves what is sent, keeps the rest, dedupes lists, and publishes preferences.updated', async () => {
      const member = await bed.member();
      const res = await putMatch(member, {
        minAge: 21,
        maxAge: 35,
        maxDistance: 80,
        genderPreference: ['female', 'female', 'other'],
        interests: [' Travel', 'travel', 'Music'],
        dealbreakers: ['Smoking'],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        minAge: 21,
        maxAge: 35,
        maxDistance: 80,
        genderPreference: ['female', 'other'],
        interests: ['Travel', 'Music'],
        dealbreakers: ['Smoking'],
      });
      const partial = await putMatch(member, { maxDistance: 10 }).expect(200);
      expect(partial.body).toMatchObject({
        minAge: 21,
        maxAge: 35,
        maxDistance: 10,
        interests: ['Travel', 'Music'],
      });
      expect((await getMatch(member)).body).toEqual(partial.body);

      const events = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'preferences.updated');
      expect(events).toHaveLength(2);
      expect(events[1].payload).toMatchObject({
        userId: member.userId,
        minAge: 21,
        maxAge: 35,
        maxDistance: 10,
        genderPreference: ['female', 'other'],
        filters: expect.objectContaining({
          interests: ['Travel', 'Music'],
          dealbreakers: ['Smoking'],
          minHeight: null,
        }),
        updatedAt: expect.any(String),
      });
    });

    it.each([
      [{ minAge: 17 }, 'Minimum age must be a whole number between 18 and 99'],
      [{ minAge: 100 }, 'Minimum age must be a whole number between 18 and 99'],
      [{ maxAge: 17 }, 'Maximum age must be a whole number between 18 and 99'],
      [{ maxAge: 100 }, 'Maximum age must be a whole number between 18 and 99'],
      [{ minAge: 30.5 }, 'Minimum age must be a whole number between 18 and 99'],
      [{ maxDistance: 0 }, 'Distance must be a whole number between 1 and 200 km'],
      [{ maxDistance: 201 }, 'Distance must be a whole number between 1 and 200 km'],
      [{ maxDistance: '50' }, 'Distance must be a whole number between 1 and 200 km'],
      [{ minAge: 40, maxAge: 30 }, ProfileMessages.ageRangeOrder],
      [{ minAge: 100, maxAge: 30 }, 'Minimum age must be a whole number between 18 and 99'],
      [{ genderPreference: ['man'] }, expect.stringMatching(/^Gender preference must be among/)],
      [
        { genderPreference: ['prefer-not-to-say'] },
        expect.stringMatching(/^Gender preference must be among/),
      ],
      [{ genderPreference: 'female' }, expect.stringMatching(/^Gender preference must be among/)],
      [
        { interests: Array.from({ length: 21 }, (_, i) => `i${i}`) },
        expect.stringMatching(/^Interests must be a list/),
      ],
      [{ dealbreakers: ['d'.repeat(41)] }, expect.stringMatching(/^Dealbreakers must be a list/)],
      [{ minHeight: 150 }, 'Unknown field: minHeight'],
    ])('refuses %j', async (body, error) => {
      const member = await bed.member();
      await putMatch(member, { minAge: 30, maxAge: 40 }).expect(200);
      const res = await putMatch(member, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error });
      expect((await getMatch(member)).body).toMatchObject({ minAge: 30, maxAge: 40, maxDistance: 50 });
    });

    it('checks the age order against what is stored', async () => {
      const member = await bed.member();
      await putMatch(member, { minAge: 30, maxAge: 40 }).expect(200);
      const res = await putMatch(member, { minAge: 45 });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: ProfileMessages.ageRangeOrder, code: ProfileErrorCode.AgeRangeOrder });
    });

    it.each([
      [{ minAge: 18, maxAge: 18 }],
      [{ minAge: 99, maxAge: 99 }],
      [{ maxDistance: 1 }],
      [{ maxDistance: 200 }],
      [{ genderPreference: [...INTERESTED_IN_OPTIONS] }],
      [{ genderPreference: [] }],
      [{ interests: Array.from({ length: 20 }, (_, i) => `i${i}`) }],
    ] as [Record<string, unknown>][])('accepts %j', async (body) => {
      const member = await bed.member();
      const res = await putMatch(member, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(body);
    });
  });

  describe('filter preferences (/api/profile/me/preferences)', () => {
    it('saves the whole filter set and shares ages, distance and genders with the match preferences', async () => {
      const member = await bed.member();
      await putMatch(member, { interests: ['Art'], dealbreakers: ['Smoking'] }).expect(200);
      const res = await putFilters(member, FILTERS);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(FILTERS);
      expect((await getFilters(member)).body).toEqual(FILTERS);
      expect((await getMatch(member)).body).toEqual({
        minAge: 25,
        maxAge: 40,
        maxDistance: 30,
        genderPreference: ['female', 'non-binary'],
        interests: ['Art'],
        dealbreakers: ['Smoking'],
      });

      await putMatch(member, { minAge: 30, maxDistance: 120, genderPreference: ['male'] }).expect(200);
      expect((await getFilters(member)).body).toEqual({
        ...FILTERS,
        minAge: 30,
        maxDistance: 120,
        genderPreference: ['male'],
      });

      const last = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'preferences.updated').at(-1);
      expect(last?.payload.filters).toMatchObject({
        educationPreference: ['bachelor', 'master'],
        minHeight: 150,
      });
    });

    it('reads lists and heights left out as "everyone" and "no limit"', async () => {
      const member = await bed.member();
      await putFilters(member, FILTERS).expect(200);
      const res = await putFilters(member, { minAge: 20, maxAge: 30, maxDistance: 5 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_FILTER_PREFERENCES, minAge: 20, maxAge: 30, maxDistance: 5 });
      const cleared = await putFilters(member, { ...FILTERS, minHeight: null, maxHeight: null });
      expect(cleared.body).toMatchObject({ minHeight: null, maxHeight: null });
    });

    it('accepts every option value of every list, and the height bounds', async () => {
      const member = await bed.member();
      const values = (options: readonly { value: string }[]) => options.map((o) => o.value);
      const all = {
        ...FILTERS,
        minHeight: 140,
        maxHeight: 220,
        genderPreference: values(FILTER_GENDER_OPTIONS),
        educationPreference: values(EDUCATION_OPTIONS),
        relationshipGoalPreference: values(RELATIONSHIP_GOAL_OPTIONS),
        smokingPreference: values(SMOKING_DRINKING_OPTIONS),
        drinkingPreference: values(SMOKING_DRINKING_OPTIONS),
        exercisePreference: values(EXERCISE_OPTIONS),
        petsPreference: values(PETS_OPTIONS),
      };
      const res = await putFilters(member, all);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(all);
      await putFilters(member, { ...FILTERS, minHeight: 180, maxHeight: 180 }).expect(200);
    });

    const HEIGHT = 'Height must be a whole number between 140 and 220 cm, or empty';
    it.each([
      [{ minHeight: 139 }, HEIGHT],
      [{ minHeight: 221 }, HEIGHT],
      [{ maxHeight: 139 }, HEIGHT],
      [{ maxHeight: 221 }, HEIGHT],
      [{ minHeight: 170.5 }, HEIGHT],
      [{ minHeight: 200, maxHeight: 160 }, ProfileMessages.heightRangeOrder],
      [{ minAge: 17 }, 'Minimum age must be a whole number between 18 and 99'],
      [{ maxAge: 100 }, 'Maximum age must be a whole number between 18 and 99'],
      [{ minAge: 50, maxAge: 40 }, ProfileMessages.ageRangeOrder],
      [{ maxDistance: 0 }, 'Distance must be a whole number between 1 and 200 km'],
      [{ maxDistance: 201 }, 'Distance must be a whole number between 1 and 200 km'],
      [{ minAge: undefined }, 'Minimum age must be a whole number between 18 and 99'],
      [{ genderPreference: ['man'] }, expect.stringMatching(/^Gender preference must be among/)],
      [
        { educationPreference: ["Bachelor's Degree"] },
        expect.stringMatching(/^Education preference must be among/),
      ],
      [{ relationshipGoalPreference: ['long-term'] }, expect.stringMatching(/^Relationship goal preference/)],
      [{ smokingPreference: ['sometimes'] }, expect.stringMatching(/^Smoking preference must be among/)],
      [{ drinkingPreference: ['Never'] }, expect.stringMatching(/^Drinking preference must be among/)],
      [{ exercisePreference: ['weekly'] }, expect.stringMatching(/^Exercise preference must be among/)],
      [{ petsPreference: ['fish'] }, expect.stringMatching(/^Pets preference must be among/)],
      [{ requiredInterests: [42] }, expect.stringMatching(/^Required interests must be a list/)],
      [{ dealbreakers: ['x'] }, 'Unknown field: dealbreakers'],
    ])('refuses %j', async (change, error) => {
      const member = await bed.member();
      await putFilters(member, FILTERS).expect(200);
      const res = await putFilters(member, { ...FILTERS, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error });
      expect((await getFilters(member)).body).toEqual(FILTERS);
    });
  });

  it('answers 401 without a session', async () => {
    for (const [method, route] of [
      ['get', '/api/preferences/me'],
      ['put', '/api/preferences/me'],
      ['get', '/api/profile/me/preferences'],
      ['put', '/api/profile/me/preferences'],
    ] as const) {
      const res = await request(server)[method](route);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: AuthMessages.authRequired });
    }
  });
});
