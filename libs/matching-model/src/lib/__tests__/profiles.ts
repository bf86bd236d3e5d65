import type { ScoringProfile } from '../profile';

/** A complete member for scoring tests: 30, in Berlin, looking for 18–99, with `changes` applied. */
export function profile(userId: string, changes: Partial<ScoringProfile> = {}): ScoringProfile {
  return {
    userId,
    age: 30,
    genderGroup: 'female',
    goals: ['long_term', 'marriage'],
    interests: ['Travel', 'Music'],
    height: 170,
    educationValue: 'bachelor',
    smoking: 'never',
    drinking: 'socially',
    exercise: 'sometimes',
    pets: 'dog',
    lat: 52.52,
    lng: 13.405,
    photos: [{}, {}],
    minAge: 25,
    maxAge: 35,
    maxDistance: 50,
    minHeight: null,
    maxHeight: null,
    preferredInterests: [],
    ...changes,
  };
}
