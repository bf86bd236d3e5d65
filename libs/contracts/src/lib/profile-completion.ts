import { ONBOARDING_BIO_MIN_LENGTH } from './constants';

/** What the completion percentage looks at: the profile's fields and how many photos it shows. */
export interface ProfileCompletionInput {
  name: string | null;
  age: number | null;
  gender: string | null;
  bio: string | null;
  location: string | null;
  interests: string[] | null;
  lookingFor: string | null;
  occupation: string | null;
  height: number | null;
  education: string | null;
  photoCount: number;
}

/** One part of a profile that earns completion points, and how the home screen asks for it. */
export interface ProfileCompletionPart {
  part: string;
  points: number;
  /** The home screen's checklist line for a member who has not done it yet (issue 25). */
  todo: string;
  done: (p: ProfileCompletionInput) => boolean;
}

const filled = (value: string | null | undefined) => typeof value === 'string' && value.trim().length > 0;

/**
 * `GET /api/profile/me/completion`: each part of a profile earns its points, 100 in all. The
 * weights follow what another member needs to decide: a photo, then who, how old, about them.
 * profile-service sums them; the home screen lists the parts not done, so both read one list.
 */
export const PROFILE_COMPLETION_PARTS: readonly ProfileCompletionPart[] = [
  { part: 'name', points: 10, todo: 'Add your name', done: (p) => filled(p.name) },
  { part: 'age', points: 10, todo: 'Add your age', done: (p) => p.age !== null && p.age !== undefined },
  { part: 'gender', points: 10, todo: 'Add your gender', done: (p) => filled(p.gender) },
  {
    part: `bio of at least ${ONBOARDING_BIO_MIN_LENGTH} characters`,
    points: 15,
    todo: `Write a bio of at least ${ONBOARDING_BIO_MIN_LENGTH} characters`,
    done: (p) => (p.bio ?? '').trim().length >= ONBOARDING_BIO_MIN_LENGTH,
  },
  { part: 'location', points: 10, todo: 'Add your location', done: (p) => filled(p.location) },
  { part: 'at least one photo', points: 20, todo: 'Add a photo', done: (p) => p.photoCount >= 1 },
  {
    part: 'at least 3 interests',
    points: 10,
    todo: 'Pick at least 3 interests',
    done: (p) => (p.interests ?? []).length >= 3,
  },
  { part: 'looking for', points: 5, todo: "Say what you're looking for", done: (p) => filled(p.lookingFor) },
  { part: 'occupation', points: 5, todo: 'Add your occupation', done: (p) => filled(p.occupation) },
  {
    part: 'height or education',
    points: 5,
    todo: 'Add your height or education',
    done: (p) => (p.height !== null && p.height !== undefined) || filled(p.education),
  },
];

/** The percentage of the profile that is filled in: an integer from 0 to 100. */
export function profileCompletionPercentage(input: ProfileCompletionInput): number {
  return PROFILE_COMPLETION_PARTS.reduce((sum, w) => sum + (w.done(input) ? w.points : 0), 0);
}

/** The parts still missing, most points first (what would raise the percentage most). */
export function missingProfileParts(input: ProfileCompletionInput): ProfileCompletionPart[] {
  return PROFILE_COMPLETION_PARTS.filter((w) => !w.done(input)).sort((x, y) => y.points - x.points);
}
