import { registrationFields } from '../profiles.service';
import { isProfileCompleted, profilePictureOf, toProfileDto } from '../profile.mapper';
import type { Photo } from '../photo.entity';
import type { Profile } from '../profile.entity';

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'p1',
    userId: 'u1',
    name: 'Ana',
    age: 29,
    gender: 'female',
    bio: 'Climber and cook.',
    location: 'Lisbon, Portugal',
    height: null,
    occupation: null,
    education: null,
    lookingFor: null,
    interests: [],
    isVerified: true,
    onboardingCompleted: false,
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
});
