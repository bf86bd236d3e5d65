import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { EventEnvelope, ProfileUpdatedPayload } from '@mate/contracts';
import { startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';
import { ProfileRepublisher } from '../profile-republisher';

jest.setTimeout(120_000);

interface StoredEvent {
  name: string;
  body: EventEnvelope;
}

describe('republish: every member current state through the outbox', () => {
  let bed: ProfileTestBed;

  beforeAll(async () => {
    bed = await startProfileTestBed('republish');
  });

  afterAll(async () => {
    await bed?.close();
  });

  /** The member's events in the order their versions give them. */
  async function eventsOf(userId: string, name: string): Promise<EventEnvelope[]> {
    const rows: StoredEvent[] = await bed.dataSource.query(
      `SELECT name, body FROM outbox WHERE kind = 'event' AND name = $2 AND body->'payload'->>'userId' = $1
        ORDER BY (body->>'aggregateVersion')::int`,
      [userId, name],
    );
    return rows.map((r) => r.body);
  }

  const last = <T>(list: T[]) => list[list.length - 1];

  it('publishes what the API last published, at a newer version, for members of the API and of the seeder alike', async () => {
    // A member who signed up and edited through the API.
    const ana = await bed.member({ name: 'Ana', age: 29 });
    await request(bed.app.getHttpServer())
      .put('/api/profile/me')
      .set('Authorization', ana.authorization)
      .send({ bio: 'Climber and cook.', interests: ['Travel', 'Music'], location: 'Lisbon, Portugal', height: 170 })
      .expect(200);
    await request(bed.app.getHttpServer())
      .put('/api/preferences/me')
      .set('Authorization', ana.authorization)
      .send({ minAge: 27, maxAge: 40, maxDistance: 30, genderPreference: ['male'] })
      .expect(200);
    const [anaProfileBefore, anaPrefsBefore] = [await eventsOf(ana.userId, 'profile.updated'), await eventsOf(ana.userId, 'preferences.updated')];
    expect(anaPrefsBefore).toHaveLength(1);

    // A member who registered but never saved preferences.
    const ben = await bed.member({ name: 'Ben', age: 33, verified: false });

    // A member the seeder wrote straight into the tables: no event at all.
    const cleo = randomUUID();
    await bed.dataSource.query(
      `INSERT INTO profiles (user_id, name, age, gender, interests, location, location_lat, location_lng, location_resolved,
                             is_verified, onboarding_completed, smoking, exercise, pets)
       VALUES ($1, 'Cleo', 41, 'female', '{Hiking,Wine}', 'Paris, France', 48.85341, 2.3488, true, true, true,
               'never', 'daily', 'cat')`,
      [cleo],
    );
    await bed.dataSource.query(
      `INSERT INTO preferences (user_id, min_age, max_age, max_distance, gender_preference)
       VALUES ($1, 35, 50, 100, '{male,female}')`,
      [cleo],
    );
    expect(await eventsOf(cleo, 'profile.updated')).toEqual([]);

    // Batches of two: three members take two batches.
    const result = await bed.app.get(ProfileRepublisher).republishAll(2);
    expect(result).toEqual({ profiles: 3, preferences: 2 });

    // Ana: the same payloads the API published last, each at the next version of its aggregate.
    const anaProfile = await eventsOf(ana.userId, 'profile.updated');
    expect(anaProfile).toHaveLength(anaProfileBefore.length + 1);
    expect(last(anaProfile).payload).toEqual(last(anaProfileBefore).payload);
    expect(last(anaProfile).aggregateVersion).toBe((last(anaProfileBefore).aggregateVersion ?? 0) + 1);
    const anaPrefs = await eventsOf(ana.userId, 'preferences.updated');
    expect(anaPrefs).toHaveLength(2);
    expect(anaPrefs[1].payload).toEqual(anaPrefs[0].payload);
    expect(anaPrefs[1].aggregateVersion).toBe(2);

    // Ben: his profile, and no preferences.updated (he never had preferences to publish).
    expect(last(await eventsOf(ben.userId, 'profile.updated')).payload).toMatchObject({
      userId: ben.userId,
      name: 'Ben',
      age: 33,
      isVerified: false,
    });
    expect(await eventsOf(ben.userId, 'preferences.updated')).toEqual([]);

    // Cleo: her first events ever, carrying the row as the seeder wrote it.
    const [cleoProfile] = await eventsOf(cleo, 'profile.updated');
    expect(cleoProfile.aggregateVersion).toBe(1);
    expect(cleoProfile.payload).toMatchObject<Partial<ProfileUpdatedPayload>>({
      userId: cleo,
      name: 'Cleo',
      age: 41,
      gender: 'female',
      interests: ['Hiking', 'Wine'],
      latitude: 48.85341,
      longitude: 2.3488,
      locationText: 'Paris, France',
      hasPhoto: false,
      isVerified: true,
      onboardingCompleted: true,
      smoking: 'never',
      drinking: null,
      exercise: 'daily',
      pets: 'cat',
    });
    const [cleoPrefs] = await eventsOf(cleo, 'preferences.updated');
    expect(cleoPrefs.payload).toMatchObject({ userId: cleo, minAge: 35, maxAge: 50, maxDistance: 100, genderPreference: ['male', 'female'] });

    // Republishing again changes no state: the same payloads, one version up.
    await bed.app.get(ProfileRepublisher).republishAll();
    const again = await eventsOf(cleo, 'profile.updated');
    expect(again.map((e) => e.aggregateVersion)).toEqual([1, 2]);
    expect(again[1].payload).toEqual(again[0].payload);
  });
});
