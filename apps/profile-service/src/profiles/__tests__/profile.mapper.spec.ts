import { registrationFields } from '../profiles.service';
import {
  isProfileCompleted,
  profilePictureOf,
  toProfileDto,
  toProfileUpdatedPayload,
  toPublicProfileDto,
} from '../profile.mapper';
import { COMPLETION_WEIGHTS, completionPercentage, type CompletionInput } from '../profile-completion';
import type { Photo } from '../../photos/photo.entity';
import type { Profile } from '../profile.entity';
import { PUBLIC_PROFILE_KEYS } from './public-profile-keys';

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'p1',
    userId: 'u1',
    name: 'Ana',
    age: 29,
    gender: 'female',
    bio: 'Climber and cook.',
    location: 'Lisbon, Portugal',
    locationLat: 38.72,
    locationLng: -9.13,
    locationResolved: true,
    height: null,
    occupation: null,
    education: null,
    lookingFor: null,
    interests: [],
    smoking: null,
    drinking: null,
    exercise: null,
    pets: null,
    isVerified: true,
    onboardingCompleted: false,
    onboardingSkipped: false,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

function photo(id: string, order: number, isPrimary = false): Photo {
  return {
    id,
    profileId: 'p1',
    userId: 'u1',
    url: `/uploads/${id}.webp`,
    isPrimary,
    order,
    storageKey: null,
    sizes: {},
    moderationStatus: 'pending',
    moderatedAt: null,
    rejectionReason: null,
    scores: null,
    riskScore: null,
    scannedAt: null,
    hiddenFromMembers: false,
    createdAt: new Date(order),
  };
}

describe('profile mapping', () => {
  it('is completed with name, age, gender, bio, location and a photo', () => {
    expect(isProfileCompleted(profile(), [photo('a', 0)])).toBe(true);
    expect(isProfileCompleted(profile(), [])).toBe(false);
    for (const field of ['name', 'age', 'gender', 'bio', 'location'] as const) {
      expect(isProfileCompleted(profile({ [field]: null }), [photo('a', 0)])).toBe(false);
    }
    expect(isProfileCompleted(profile({ bio: '   ' }), [photo('a', 0)])).toBe(false);
  });

  it('shows the primary photo, else the first in order', () => {
    expect(profilePictureOf([photo('b', 1), photo('a', 0)])).toBe('/uploads/a.webp');
    expect(profilePictureOf([photo('b', 1, true), photo('a', 0)])).toBe('/uploads/b.webp');
    expect(profilePictureOf([])).toBeNull();
  });

  it('answers the camelCase shape with every list and flag present', () => {
    const dto = toProfileDto(profile({ interests: null as unknown as string[] }), [
      photo('b', 1),
      photo('a', 0),
    ]);
    expect(dto).toMatchObject({
      id: 'p1',
      userId: 'u1',
      interests: [],
      profilePicture: '/uploads/a.webp',
      isVerified: true,
      profileCompleted: true,
      onboardingCompleted: false,
    });
    expect(dto.photos.map((p) => p.id)).toEqual(['a', 'b']);
    expect(Object.keys(dto).some((k) => k.includes('_'))).toBe(false);
  });

  it('takes from registration only a trimmed name and an allowed age', () => {
    const base = { userId: 'u1', email: 'a@b.c', registeredAt: new Date().toISOString() };
    expect(registrationFields({ ...base, name: '  Zoe ', age: 30 })).toEqual({
      userId: 'u1',
      name: 'Zoe',
      age: 30,
    });
    expect(registrationFields({ ...base, name: '   ', age: 17 })).toEqual({
      userId: 'u1',
      name: null,
      age: null,
    });
    expect(registrationFields({ ...base, name: null, age: 121 })).toEqual({
      userId: 'u1',
      name: null,
      age: null,
    });
    expect(registrationFields({ ...base, name: 'x'.repeat(300), age: 30.5 }).name).toHaveLength(100);
  });

  it('leaves rejected photos out of everything a member sees', () => {
    const rejected = { ...photo('r', 0, true), moderationStatus: 'rejected' as const };
    const dto = toProfileDto(profile(), [rejected, photo('a', 1)]);
    expect(dto.photos.map((p) => p.id)).toEqual(['a']);
    expect(dto.profilePicture).toBe('/uploads/a.webp');
    expect(isProfileCompleted(profile(), [rejected])).toBe(false);
  });

  it('shows the owner a photo hidden for review, and leaves it out of what other members and services see', () => {
    const hidden = { ...photo('h', 0, true), hiddenFromMembers: true };
    const photos = [hidden, photo('a', 1)];
    const own = toProfileDto(profile(), photos);
    expect(own.photos.map((p) => p.id)).toEqual(['h', 'a']);
    expect(own.profilePicture).toBe('/uploads/h.webp');
    const seen = toPublicProfileDto(profile(), photos);
    expect(seen.photos.map((p) => p.id)).toEqual(['a']);
    expect(seen.profilePicture).toBe('/uploads/a.webp');
    const event = toProfileUpdatedPayload(profile(), photos);
    expect(event.photos).toEqual([{ id: 'a', url: '/uploads/a.webp' }]);
    expect(event.profilePicture).toBe('/uploads/a.webp');
    expect(toProfileUpdatedPayload(profile(), [hidden]).hasPhoto).toBe(false);
  });

  it('tells whether the location was found, never where it is', () => {
    expect(toProfileDto(profile(), []).locationResolved).toBe(true);
    expect(
      toProfileDto(profile({ locationResolved: false, locationLat: null, locationLng: null }), [])
        .locationResolved,
    ).toBe(false);
    expect(toProfileDto(profile({ location: null, locationResolved: null }), []).locationResolved).toBeNull();
    for (const dto of [toProfileDto(profile(), []), toPublicProfileDto(profile(), [])]) {
      expect(JSON.stringify(dto)).not.toMatch(/38\.72|-9\.13|lat|lng|longitude/i);
    }
  });

  it('shows other members no onboarding, verification or location state', () => {
    expect(Object.keys(toPublicProfileDto(profile(), [photo('a', 0)])).sort()).toEqual(PUBLIC_PROFILE_KEYS);
  });

  it('gives services the coordinates in profile.updated', () => {
    expect(toProfileUpdatedPayload(profile(), [photo('a', 0)])).toMatchObject({
      userId: 'u1',
      latitude: 38.72,
      longitude: -9.13,
      locationText: 'Lisbon, Portugal',
      hasPhoto: true,
      profilePicture: '/uploads/a.webp',
    });
  });

  it('gives matching the card: bio, occupation and the visible photos, the primary first', () => {
    const second = { ...photo('b', 1), isPrimary: true };
    const first = { ...photo('a', 0), isPrimary: false };
    const payload = toProfileUpdatedPayload(profile(), [first, second]);
    expect(payload.photos).toEqual([
      { id: 'b', url: second.url },
      { id: 'a', url: first.url },
    ]);
    expect(payload).toHaveProperty('bio', profile().bio);
    expect(payload).toHaveProperty('occupation', profile().occupation);
  });
});

describe('profile completion', () => {
  const empty: CompletionInput = {
    name: null,
    age: null,
    gender: null,
    bio: null,
    location: null,
    interests: [],
    lookingFor: null,
    occupation: null,
    height: null,
    education: null,
    photoCount: 0,
  };
  const full: CompletionInput = {
    name: 'Ana',
    age: 29,
    gender: 'female',
    bio: 'Climber, cook and reader.',
    location: 'Lisbon, Portugal',
    interests: ['Travel', 'Music', 'Art'],
    lookingFor: 'relationship',
    occupation: 'Engineer',
    height: 170,
    education: null,
    photoCount: 1,
  };

  it('adds up to 100 across its parts', () => {
    expect(COMPLETION_WEIGHTS.reduce((sum, w) => sum + w.points, 0)).toBe(100);
    expect(completionPercentage(empty)).toBe(0);
    expect(completionPercentage(full)).toBe(100);
  });

  it('counts each part with its weight', () => {
    expect(completionPercentage({ ...empty, name: 'Ana' })).toBe(10);
    expect(completionPercentage({ ...empty, name: '   ' })).toBe(0);
    expect(completionPercentage({ ...empty, age: 18 })).toBe(10);
    expect(completionPercentage({ ...empty, gender: 'other' })).toBe(10);
    expect(completionPercentage({ ...empty, location: 'Paris' })).toBe(10);
    expect(completionPercentage({ ...empty, photoCount: 1 })).toBe(20);
    expect(completionPercentage({ ...empty, lookingFor: 'casual' })).toBe(5);
    expect(completionPercentage({ ...empty, occupation: 'Nurse' })).toBe(5);
    expect(completionPercentage({ ...empty, height: 180 })).toBe(5);
    expect(completionPercentage({ ...empty, education: 'MSc' })).toBe(5);
    expect(completionPercentage({ ...empty, height: 180, education: 'MSc' })).toBe(5);
  });

  it('wants a bio of at least 20 characters and at least 3 interests', () => {
    expect(completionPercentage({ ...empty, bio: 'x'.repeat(19) })).toBe(0);
    expect(completionPercentage({ ...empty, bio: 'x'.repeat(20) })).toBe(15);
    expect(completionPercentage({ ...empty, bio: `  ${'x'.repeat(19)}  ` })).toBe(0);
    expect(completionPercentage({ ...empty, interests: ['a', 'b'] })).toBe(0);
    expect(completionPercentage({ ...empty, interests: ['a', 'b', 'c'] })).toBe(10);
    expect(completionPercentage({ ...full, photoCount: 0 })).toBe(80);
  });
});
