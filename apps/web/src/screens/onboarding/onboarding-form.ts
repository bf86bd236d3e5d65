import {
  ONBOARDING_BIO_MIN_LENGTH,
  ONBOARDING_GENDERS,
  ONBOARDING_INTEREST_SUGGESTIONS,
  ONBOARDING_LOOKING_FOR,
  ONBOARDING_MAX_AGE,
  ONBOARDING_MAX_INTERESTS,
  ONBOARDING_MIN_AGE,
  ProfileMessages,
  type CompleteOnboardingRequest,
  type PhotoDto,
  type ProfileDto,
} from '@mate/contracts';
import type { OnboardingStep } from './steps';

/** What the wizard collects, as typed. */
export interface OnboardingAnswers {
  name: string;
  age: string;
  gender: string;
  photos: PhotoDto[];
  bio: string;
  interests: string[];
  lookingFor: string;
  location: string;
}

/** How many suggestions are offered at once (spec 000 §3: the first 10 not yet chosen). */
export const SUGGESTIONS_SHOWN = 10;

const inList = (list: readonly string[], value: string | null | undefined): value is string =>
  !!value && list.includes(value);

/** Prefilled from the profile: name and age come from sign-up; anything valid already there stays. */
export function answersFrom(profile: ProfileDto | null, fallbackName?: string | null): OnboardingAnswers {
  return {
    name: profile?.name ?? fallbackName ?? '',
    age: profile?.age != null ? String(profile.age) : '',
    gender: inList(ONBOARDING_GENDERS, profile?.gender) ? (profile?.gender ?? '') : '',
    photos: profile?.photos ?? [],
    bio: profile?.bio ?? '',
    interests: (profile?.interests ?? []).slice(0, ONBOARDING_MAX_INTERESTS),
    lookingFor: inList(ONBOARDING_LOOKING_FOR, profile?.lookingFor) ? (profile?.lookingFor ?? '') : '',
    location: profile?.location ?? '',
  };
}

export function parseAge(value: string): number | null {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? null : parsed;
}

/** Spec 000 §5: under 18 gets the spec's message; the field takes 18 to 99. */
export function ageError(value: string): string | null {
  const age = parseAge(value);
  if (age === null) return null;
  if (age < ONBOARDING_MIN_AGE) return ProfileMessages.underage;
  if (age > ONBOARDING_MAX_AGE) return `Please enter an age between ${ONBOARDING_MIN_AGE} and ${ONBOARDING_MAX_AGE}`;
  return null;
}

export const bioLength = (bio: string) => bio.trim().length;

/** Spec 000 §4 step gating. */
export function canLeaveStep(step: OnboardingStep, answers: OnboardingAnswers): boolean {
  switch (step) {
    case 'Welcome':
      return true;
    case 'Basic Info':
      return answers.name.trim() !== '' && parseAge(answers.age) !== null && ageError(answers.age) === null && answers.gender !== '';
    case 'Photo':
      return answers.photos.length > 0;
    case 'About You':
      return bioLength(answers.bio) >= ONBOARDING_BIO_MIN_LENGTH && answers.interests.length >= 1;
    case 'Preferences':
      return answers.lookingFor !== '' && answers.location.trim() !== '';
  }
}

const same = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/**
 * Spec 000 §5: input is trimmed, empty input and duplicates are ignored, at most 10
 * ('Maximum 10 interests allowed'). Answers the new list and, when refused for the limit, why.
 */
export function addInterest(interests: string[], raw: string): { interests: string[]; error: string | null } {
  const interest = raw.trim();
  if (!interest || interests.some((existing) => same(existing, interest))) return { interests, error: null };
  if (interests.length >= ONBOARDING_MAX_INTERESTS) return { interests, error: ProfileMessages.maxInterests };
  return { interests: [...interests, interest], error: null };
}

/** The first 10 of the 20 suggestions not chosen yet. */
export function suggestionsFor(interests: string[]): string[] {
  return ONBOARDING_INTEREST_SUGGESTIONS.filter((s) => !interests.some((chosen) => same(chosen, s))).slice(
    0,
    SUGGESTIONS_SHOWN,
  );
}

/** The body that completes onboarding (the server checks the same rules). */
export function completionRequestOf(answers: OnboardingAnswers): CompleteOnboardingRequest {
  return {
    name: answers.name.trim(),
    age: parseAge(answers.age) ?? 0,
    gender: answers.gender,
    bio: answers.bio.trim(),
    interests: answers.interests,
    lookingFor: answers.lookingFor,
    location: answers.location.trim(),
  };
}
