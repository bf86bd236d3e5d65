import request from 'supertest';
import pino from 'pino';
import { ProfileMessages } from '@mate/contracts';
import { startProfileTestBed, waitFor, type ProfileTestBed } from '../../__tests__/test-app';
import type { ProfileEnv } from '../../profile.env';
import { LocationBackfill } from '../location-backfill';
import { ProfilesService } from '../profiles.service';

jest.setTimeout(120_000);

describe('places (issue 25): the location picker and places stored before folding', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_places');
    server = bed.app.getHttpServer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const row = async (userId: string) =>
    ((await bed.dataSource.query('SELECT * FROM profiles WHERE user_id = $1', [userId])) as Record<string, unknown>[])[0];

  describe('GET /api/profile/places', () => {
    const places = async (query: string, authorization?: string) => {
      const member = authorization ?? (await bed.member()).authorization;
      return request(server).get(`/api/profile/places${query}`).set('Authorization', member);
    };

    it('offers Tromsø for what a member types with or without its letters, as a label to store', async () => {
      for (const typed of ['Trom', 'tromso', 'TROMSØ', 'tromsø, nor']) {
        const res = await places(`?q=${encodeURIComponent(typed)}`);
        expect(res.status).toBe(200);
        expect(res.body).toContainEqual({ name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' });
      }
    });

    it('answers 8 places by default and at most `limit`', async () => {
      expect((await places('?q=san')).body).toHaveLength(8);
      expect((await places('?q=san&limit=3')).body).toHaveLength(3);
      expect((await places('?q=san&limit=10')).body).toHaveLength(10);
      expect((await places('?q=Qwertyuiopville')).body).toEqual([]);
    });

    it('refuses a missing, empty or too long q, a bad limit and unknown fields with 400 {error}', async () => {
      const { authorization } = await bed.member();
      const refused = async (query: string, error: string) => {
        const res = await places(query, authorization);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
      };
      await refused('', ProfileMessages.placeQuery);
      await refused('?q=', ProfileMessages.placeQuery);
      await refused(`?q=${'a'.repeat(101)}`, ProfileMessages.placeQuery);
      await refused('?q=a&q=b', ProfileMessages.placeQuery);
      await refused('?q=tro&limit=0', ProfileMessages.placeLimit);
      await refused('?q=tro&limit=11', ProfileMessages.placeLimit);
      await refused('?q=tro&limit=two', ProfileMessages.placeLimit);
      await refused('?q=tro&country=NO', 'Unknown field: country');
      expect((await places(`?q=${'a'.repeat(100)}`, authorization)).status).toBe(200);
    });

    it('needs a session, and is not read as a member id', async () => {
      const res = await request(server).get('/api/profile/places?q=tro');
      expect(res.status).toBe(401);
      expect(res.body).toHaveProperty('error');
    });
  });

  describe('places stored as unknown before names were folded', () => {
    /** A member whose location was stored unresolved, as the geocoder before issue 25 left "Tromso". */
    async function storedUnresolved(location: string) {
      const member = await bed.member();
      await bed.dataSource.query(
        `UPDATE profiles SET location = $2, location_lat = NULL, location_lng = NULL, location_resolved = false
          WHERE user_id = $1`,
        [member.userId, location],
      );
      return member;
    }

    it('are found again and published as a profile update; an unknown place stays unknown', async () => {
      const tromso = await storedUnresolved('Tromso');
      const atlantis = await storedUnresolved('Atlantis, Nowhere');
      const me = () => request(server).get('/api/profile/me').set('Authorization', tromso.authorization);
      expect((await me()).body).toMatchObject({ location: 'Tromso', locationResolved: false });
      const atlantisEvents = (await bed.eventsOf(atlantis.userId)).length;

      expect(await bed.app.get(ProfilesService).resolveUnknownLocations(1)).toBeGreaterThanOrEqual(1);

      expect(await row(tromso.userId)).toMatchObject({ location: 'Tromso', location_resolved: true });
      expect(Number((await row(tromso.userId)).location_lat)).toBeCloseTo(69.65, 1);
      expect((await me()).body).toMatchObject({ location: 'Tromso', locationResolved: true });
      const last = (await bed.eventsOf(tromso.userId)).filter((e) => e.name === 'profile.updated').at(-1);
      expect(last?.payload).toMatchObject({ locationText: 'Tromso', latitude: expect.any(Number), longitude: expect.any(Number) });

      expect(await row(atlantis.userId)).toMatchObject({ location_resolved: false, location_lat: null });
      expect(await bed.eventsOf(atlantis.userId)).toHaveLength(atlantisEvents);
      expect(await bed.app.get(ProfilesService).resolveUnknownLocations()).toBe(0);
    });

    it('are found by a worker replica when it starts, without the member editing', async () => {
      const bodo = await storedUnresolved('Bodo, Norway');
      const before = (await bed.eventsOf(bodo.userId)).length;
      const backfill = new LocationBackfill(
        bed.app.get(ProfilesService),
        { WORKERS: 'on' } as ProfileEnv,
        pino({ level: 'silent' }),
      );
      backfill.onApplicationBootstrap();
      await waitFor(async () => (await row(bodo.userId)).location_resolved === true, { what: 'Bodø found' });
      const events = (await bed.eventsOf(bodo.userId)).slice(before);
      expect(events.map((e) => e.name)).toEqual(['profile.updated']);
    });
  });
});
