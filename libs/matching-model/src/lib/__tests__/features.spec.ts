import { distanceKm, FEATURE_COUNT, FEATURE_NAMES, pairFeatures } from '../features';
import { profile } from './profiles';

const feature = (x: Float64Array, name: (typeof FEATURE_NAMES)[number]) => x[FEATURE_NAMES.indexOf(name)];

describe('pairwise features of "A looks at B"', () => {
  it('has one value per named feature', () => {
    expect(pairFeatures(profile('a'), profile('b'))).toHaveLength(FEATURE_COUNT);
  });

  it('counts shared interests, their Jaccard similarity and A’s preferred interests that B lists', () => {
    const a = profile('a', { interests: ['Travel', 'Music', 'Art'], preferredInterests: ['Yoga', 'Art'] });
    const b = profile('b', { interests: ['Music', 'Art', 'Yoga', 'Food'] });
    const x = pairFeatures(a, b);
    expect(feature(x, 'sharedInterests')).toBeCloseTo(2 / 5);
    expect(feature(x, 'interestJaccard')).toBeCloseTo(2 / 5);
    expect(feature(x, 'preferredInterests')).toBeCloseTo(1);
  });

  it('fits age to the centre of A’s range: 1 at the centre, 0 at an edge, below 0 outside', () => {
    const a = profile('a', { minAge: 25, maxAge: 35 });
    expect(feature(pairFeatures(a, profile('b', { age: 30 })), 'ageFit')).toBeCloseTo(1);
    expect(feature(pairFeatures(a, profile('b', { age: 35 })), 'ageFit')).toBeCloseTo(0);
    expect(feature(pairFeatures(a, profile('b', { age: 40 })), 'ageFit')).toBeCloseTo(-1);
    expect(feature(pairFeatures(a, profile('b', { age: null })), 'ageFit')).toBe(0);
    expect(feature(pairFeatures(a, profile('b', { age: 40 })), 'ageGap')).toBeCloseTo(1);
  });

  it('reads distance against A’s maximum, and flags an unknown place', () => {
    const a = profile('a', { maxDistance: 50 });
    const near = profile('b', { lat: 52.52 + 25 / 111.195 });
    expect(distanceKm(a, near)).toBeCloseTo(25, 0);
    expect(feature(pairFeatures(a, near), 'distance')).toBeCloseTo(0.5, 1);
    const unknown = pairFeatures(a, profile('b', { lat: null, lng: null }));
    expect([feature(unknown, 'distance'), feature(unknown, 'distanceUnknown')]).toEqual([0, 1]);
  });

  it('scores goals and lifestyle as compatibility, 0 when either side has not said', () => {
    const a = profile('a', { goals: ['casual'], smoking: 'never', exercise: 'never', pets: 'none' });
    const b = profile('b', { goals: ['long_term'], smoking: 'regularly', exercise: 'daily', pets: 'cat' });
    const x = pairFeatures(a, b);
    expect(feature(x, 'goals')).toBe(-1);
    expect(feature(x, 'smoking')).toBe(-1);
    expect(feature(x, 'exercise')).toBe(-1);
    expect(feature(x, 'pets')).toBe(-1);
    expect(feature(x, 'drinking')).toBe(1);
    const unsaid = pairFeatures(
      a,
      profile('b', { goals: [], smoking: null, exercise: 'prefer_not_to_say', pets: null }),
    );
    expect([
      feature(unsaid, 'goals'),
      feature(unsaid, 'smoking'),
      feature(unsaid, 'exercise'),
      feature(unsaid, 'pets'),
    ]).toEqual([0, 0, 0, 0]);
  });

  it('fits height to A’s range and counts B’s photos up to six', () => {
    const a = profile('a', { minHeight: 175, maxHeight: null });
    expect(feature(pairFeatures(a, profile('b', { height: 180 })), 'heightFit')).toBe(1);
    expect(feature(pairFeatures(a, profile('b', { height: 170 })), 'heightFit')).toBe(-1);
    expect(feature(pairFeatures(profile('a'), profile('b', { height: 150 })), 'heightFit')).toBe(0);
    expect(feature(pairFeatures(a, profile('b', { photos: [{}, {}, {}] })), 'photos')).toBeCloseTo(0.5);
    expect(feature(pairFeatures(a, profile('b', { photos: Array(9).fill({}) })), 'photos')).toBe(1);
  });
});
