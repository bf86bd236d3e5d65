import { randomUUID } from 'node:crypto';
import type { PreferencesUpdatedPayload, ProfileUpdatedPayload } from '@mate/contracts';
import { startMatchingTestBed, type MatchingTestBed } from '../../__tests__/matching-test-bed';
import { Candidate } from '../candidate.entity';

/** A whole profile as profile-service publishes it. */
function profile(userId: string, changes: Partial<ProfileUpdatedPayload> = {}): ProfileUpdatedPayload {
  return {
    userId,
    name: 'Lea',
    age: 31,
    gender: 'female',
    lookingFor: 'long-term',
    interests: ['Hiking'],
    height: 168,
    education: "Master's Degree",
    latitude: 52.52,
    longitude: 13.405,
    locationText: 'Berlin, Germany',
    hasPhoto: true,
    profilePicture: '/p/1.webp',
    isVerified: true,
    onboardingCompleted: true,
    smoking: 'never',
    drinking: 'socially',
    exercise: 'daily',
    pets: 'cat',
    bio: 'Climber',
    occupation: 'Nurse',
    photos: [
      { id: 'a', url: '/p/1.webp' },
      { id: 'b', url: '/p/2.webp' },
    ],
    updatedAt: new Date().toISOString(),
    ...changes,
  };
}

/** Preferences as profile-service publishes them: the defaults (open to everyone), with `changes`. */
function preferences(
  userId: string,
  changes: Partial<PreferencesUpdatedPayload> = {},
): PreferencesUpdatedPayload {
  return {
    userId,
    minAge: 18,
    maxAge: 99,
    maxDistance: 50,
    genderPreference: [],
    filters: {},
    updatedAt: new Date().toISOString(),
    ...changes,
  };
}

describe('candidate rows from profile.updated and preferences.updated (real PostgreSQL)', () => {
  let bed: MatchingTestBed;
  const row = (userId: string) => bed.dataSource.manager.findOneByOrFail(Candidate, { userId });

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_events');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('writes every field of the profile, with the filter readings of gender, goals and education', async () => {
    const userId = randomUUID();
    expect(await bed.deliver('profile.updated', profile(userId), 1)).toBe('handled');
    expect(await row(userId)).toMatchObject({
      name: 'Lea',
      age: 31,
      gender: 'female',
      genderGroup: 'female',
      lookingFor: 'long-term',
      goals: ['long_term', 'marriage'],
      education: "Master's Degree",
      educationValue: 'master',
      smoking: 'never',
      pets: 'cat',
      bio: 'Climber',
      occupation: 'Nurse',
      locationText: 'Berlin, Germany',
      lat: 52.52,
      lng: 13.405,
      photos: [
        { id: 'a', url: '/p/1.webp' },
        { id: 'b', url: '/p/2.webp' },
      ],
      suggestible: true,
      // No preferences yet: the spec's defaults.
      minAge: 18,
      maxAge: 99,
      maxDistance: 50,
      genderPreference: [],
      requiredInterests: [],
      minHeight: null,
    });

    // Whole state: a field the next version leaves empty is empty.
    await bed.deliver(
      'profile.updated',
      profile(userId, { bio: null, smoking: null, photos: [], hasPhoto: false, gender: 'prefer-not-to-say' }),
      2,
    );
    expect(await row(userId)).toMatchObject({
      bio: null,
      smoking: null,
      photos: [],
      genderGroup: 'other',
      suggestible: false,
    });
  });

  it('reads an envelope from before bio, occupation, photos and lifestyle as not said', async () => {
    const userId = randomUUID();
    const {
      bio: _b,
      occupation: _o,
      photos: _p,
      smoking: _s,
      drinking: _d,
      exercise: _e,
      pets: _pe,
      ...older
    } = profile(userId);
    await bed.deliver('profile.updated', older, 1);
    expect(await row(userId)).toMatchObject({
      bio: null,
      occupation: null,
      photos: [],
      smoking: null,
      drinking: null,
      exercise: null,
      pets: null,
    });
  });

  it('keeps a place only with both coordinates', async () => {
    const userId = randomUUID();
    await bed.deliver('profile.updated', profile(userId, { latitude: 52.52, longitude: null }), 1);
    expect(await row(userId)).toMatchObject({ lat: null, lng: null, locationText: 'Berlin, Germany' });
  });

  it('creates the row from preferences first, then fills the profile part without touching them', async () => {
    const userId = randomUUID();
    await bed.deliver(
      'preferences.updated',
      preferences(userId, {
        minAge: 25,
        maxAge: 40,
        maxDistance: 120,
        genderPreference: ['prefer-not-to-say', 'male', 'male', 'nonsense'],
        filters: {
          interests: ['Art'],
          dealbreakers: ['smoking'],
          minHeight: 170,
          maxHeight: null,
          educationPreference: ['bachelor'],
          relationshipGoalPreference: ['marriage'],
          smokingPreference: ['never'],
          drinkingPreference: [],
          exercisePreference: ['daily'],
          petsPreference: ['cat'],
          requiredInterests: ['Hiking'],
        },
      }),
      1,
    );
    expect(await row(userId)).toMatchObject({
      name: null,
      suggestible: false,
      minAge: 25,
      maxAge: 40,
      maxDistance: 120,
      genderPreference: ['male', 'other'],
      preferredInterests: ['Art'],
      dealbreakers: ['smoking'],
      minHeight: 170,
      maxHeight: null,
      educationPreference: ['bachelor'],
      relationshipGoalPreference: ['marriage'],
      smokingPreference: ['never'],
      drinkingPreference: [],
      exercisePreference: ['daily'],
      petsPreference: ['cat'],
      requiredInterests: ['Hiking'],
    });
    await bed.deliver('profile.updated', profile(userId), 1);
    expect(await row(userId)).toMatchObject({
      name: 'Lea',
      suggestible: true,
      minAge: 25,
      genderPreference: ['male', 'other'],
    });
  });

  it('reads malformed filter lists as empty (everyone) rather than failing the event', async () => {
    const userId = randomUUID();
    await bed.deliver(
      'preferences.updated',
      preferences(userId, {
        filters: { smokingPreference: 'never', requiredInterests: [1, 'Art'], minHeight: 'tall' },
      }),
      1,
    );
    expect(await row(userId)).toMatchObject({
      smokingPreference: [],
      requiredInterests: ['Art'],
      minHeight: null,
    });
  });

  it('applies events by version: an older profile or preferences event after a newer one changes nothing', async () => {
    const userId = randomUUID();
    await bed.deliver('profile.updated', profile(userId, { name: 'New' }), 5);
    expect(await bed.deliver('profile.updated', profile(userId, { name: 'Old' }), 4)).toBe('stale');
    expect((await row(userId)).name).toBe('New');

    // The preferences aggregate has its own versions.
    const prefs = (maxDistance: number) => preferences(userId, { maxDistance });
    expect(await bed.deliver('preferences.updated', prefs(150), 2)).toBe('handled');
    expect(await bed.deliver('preferences.updated', prefs(10), 1)).toBe('stale');
    expect((await row(userId)).maxDistance).toBe(150);
    expect(await bed.deliver('profile.updated', profile(userId, { name: 'Newer' }), 6)).toBe('handled');
    expect(await row(userId)).toMatchObject({ name: 'Newer', maxDistance: 150 });
  });
});
