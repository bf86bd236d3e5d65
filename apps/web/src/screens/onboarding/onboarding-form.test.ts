import { ONBOARDING_INTEREST_SUGGESTIONS } from '@mate/contracts';
import { describe, expect, it } from 'vitest';
import { aPhoto, aProfile } from '../../testing/fake-api';
import {
  addInterest,
  ageError,
  answersFrom,
  canLeaveStep,
  completionRequestOf,
  suggestionsFor,
  type OnboardingAnswers,
} from './onboarding-form';

const complete: OnboardingAnswers = {
  name: 'Ada',
  age: '30',
  gender: 'female',
  photos: [aPhoto(1)],
  bio: 'x'.repeat(20),
  interests: ['Travel'],
  lookingFor: 'long-term',
  location: 'Lisbon, Portugal',
};

describe('onboarding rules (spec 000 §4, §5)', () => {
  it('Basic Info needs a name, an age of 18 to 99 and a gender', () => {
    expect(canLeaveStep('Welcome', { ...complete, name: '' })).toBe(true);
    expect(canLeaveStep('Basic Info', complete)).toBe(true);
    expect(canLeaveStep('Basic Info', { ...complete, name: '   ' })).toBe(false);
    expect(canLeaveStep('Basic Info', { ...complete, age: '' })).toBe(false);
    expect(canLeaveStep('Basic Info', { ...complete, age: '17' })).toBe(false);
    expect(canLeaveStep('Basic Info', { ...complete, age: '18' })).toBe(true);
    expect(canLeaveStep('Basic Info', { ...complete, age: '100' })).toBe(false);
    expect(canLeaveStep('Basic Info', { ...complete, gender: '' })).toBe(false);
  });

  it("says 'You must be 18 or older to use the product' under 18, nothing for an empty field", () => {
    expect(ageError('17')).toBe('You must be 18 or older to use the product');
    expect(ageError('0')).toBe('You must be 18 or older to use the product');
    expect(ageError('18')).toBeNull();
    expect(ageError('99')).toBeNull();
    expect(ageError('')).toBeNull();
  });

  it('Photo needs a photo', () => {
    expect(canLeaveStep('Photo', complete)).toBe(true);
    expect(canLeaveStep('Photo', { ...complete, photos: [] })).toBe(false);
  });

  it('About You needs a bio of 20 characters (19 is not enough) and an interest', () => {
    expect(canLeaveStep('About You', { ...complete, bio: 'x'.repeat(19) })).toBe(false);
    expect(canLeaveStep('About You', { ...complete, bio: 'x'.repeat(20) })).toBe(true);
    expect(canLeaveStep('About You', { ...complete, bio: `  ${'x'.repeat(19)}   ` })).toBe(false);
    expect(canLeaveStep('About You', { ...complete, interests: [] })).toBe(false);
  });

  it('Preferences needs lookingFor and a location', () => {
    expect(canLeaveStep('Preferences', complete)).toBe(true);
    expect(canLeaveStep('Preferences', { ...complete, lookingFor: '' })).toBe(false);
    expect(canLeaveStep('Preferences', { ...complete, location: ' ' })).toBe(false);
  });

  it('adds interests trimmed, ignores empty input and duplicates, stops at 10', () => {
    expect(addInterest([], '  Board games ')).toEqual({ interests: ['Board games'], error: null });
    expect(addInterest(['Travel'], '   ')).toEqual({ interests: ['Travel'], error: null });
    expect(addInterest(['Travel'], 'travel')).toEqual({ interests: ['Travel'], error: null });
    const ten = ONBOARDING_INTEREST_SUGGESTIONS.slice(0, 10);
    expect(addInterest(ten, 'Chess')).toEqual({ interests: ten, error: 'Maximum 10 interests allowed' });
    // A duplicate at the limit is just ignored.
    expect(addInterest(ten, 'Travel').error).toBeNull();
  });

  it('offers the first 10 suggestions not chosen yet', () => {
    expect(suggestionsFor([])).toEqual(ONBOARDING_INTEREST_SUGGESTIONS.slice(0, 10));
    expect(suggestionsFor(['Travel', 'music'])).toEqual([
      'Photography', 'Fitness', 'Cooking', 'Reading', 'Movies', 'Gaming', 'Art', 'Yoga', 'Hiking', 'Dancing',
    ]);
  });

  it('prefills from the profile and keeps only values of the onboarding lists', () => {
    const answers = answersFrom(aProfile({ name: 'Ada', age: 30, gender: 'other', lookingFor: 'relationship', photos: [aPhoto(1)] }));
    expect(answers).toMatchObject({ name: 'Ada', age: '30', gender: '', lookingFor: '', photos: [aPhoto(1)] });
    expect(answersFrom(aProfile({ name: null, age: null }), 'Sam')).toMatchObject({ name: 'Sam', age: '' });
  });

  it('builds the completion body with the age as a number and trimmed text', () => {
    expect(completionRequestOf({ ...complete, name: ' Ada ', location: ' Lisbon, Portugal ' })).toEqual({
      name: 'Ada',
      age: 30,
      gender: 'female',
      bio: 'x'.repeat(20),
      interests: ['Travel'],
      lookingFor: 'long-term',
      location: 'Lisbon, Portugal',
    });
  });
});
