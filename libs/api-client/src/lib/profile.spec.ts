import { normalizeProfile } from './profile';

describe('normalizeProfile (spec 000 §3)', () => {
  it('maps snake_case flags to camelCase and defaults them to false', () => {
    expect(normalizeProfile({ id: 'p', is_verified: true, profile_completed: true, onboarding_completed: true })).toMatchObject(
      { isVerified: true, profileCompleted: true, onboardingCompleted: true },
    );
    expect(normalizeProfile({ id: 'p' })).toMatchObject({
      isVerified: false,
      profileCompleted: false,
      onboardingCompleted: false,
    });
    expect(normalizeProfile(null)).toMatchObject({ id: '', isVerified: false, interests: [], photos: [] });
  });

  it('lets camelCase win over snake_case', () => {
    expect(normalizeProfile({ isVerified: false, is_verified: true }).isVerified).toBe(false);
  });

  it('unwraps { profile } and derives the picture from the primary photo', () => {
    const profile = normalizeProfile({
      profile: {
        id: 'p1',
        age: '29',
        looking_for: 'casual',
        interests: ['Music', 3, 'Art'],
        photos: [
          { id: 'a', url: '/a.jpg', is_primary: false, order: 0 },
          { id: 'b', url: '/b.jpg', isPrimary: true, order: 1 },
        ],
      },
    });
    expect(profile.age).toBe(29);
    expect(profile.lookingFor).toBe('casual');
    expect(profile.interests).toEqual(['Music', 'Art']);
    expect(profile.profilePicture).toBe('/b.jpg');
    expect(profile.photos[1]).toEqual({ id: 'b', url: '/b.jpg', isPrimary: true, order: 1 });
  });
});
