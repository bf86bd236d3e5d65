import { ONBOARDING_BIO_MIN_LENGTH } from '@mate/contracts';
import type { Profile } from './profile.entity';

/** What the completion percentage looks at: the profile and how many photos it shows. */
export type CompletionInput = Pick<
  Profile,
  | 'name'
  | 'age'
  | 'gender'
  | 'bio'
  | 'location'
  | 'interests'
  | 'lookingFor'
  | 'occupation'
  | 'height'
  | 'education'
> & { photoCount: number };

const filled = (value: string | null | undefined) => typeof value === 'string' && value.trim().length > 0;

/**
 * `GET /api/profile/me/completion`: each part of a profile earns its points, 100 in all. The
 * weights follow what another member needs to decide: a photo, then who, how old, about them.
 */
export const COMPLETION_WEIGHTS: readonly {
  part: string;
  points: number;
  done: (p: CompletionInput) => boolean;
}[] = [
  { part: 'name', points: 10, done: (p) => filled(p.name) },
  { part: 'age', points: 10, done: (p) => p.age !== null && p.age !== undefined },
  { part: 'gender', points: 10, done: (p) => filled(p.gender) },
  {
    part: `bio of at least ${ONBOARDING_BIO_MIN_LENGTH} characters`,
    points: 15,
    done: (p) => (p.bio ?? '').trim().length >= ONBOARDING_BIO_MIN_LENGTH,
  },
  { part: 'location', points: 10, done: (p) => filled(p.location) },
  { part: 'at least one photo', points: 20, done: (p) => p.photoCount >= 1 },
  { part: 'at least 3 interests', points: 10, done: (p) => (p.interests ?? []).length >= 3 },
  { part: 'looking for', points: 5, done: (p) => filled(p.lookingFor) },
  { part: 'occupation', points: 5, done: (p) => filled(p.occupation) },
  { part: 'height or education', points: 5, done: (p) => p.height !== null || filled(p.education) },
];

/** The percentage of the profile that is filled in: an integer from 0 to 100. */
export function completionPercentage(input: CompletionInput): number {
  return COMPLETION_WEIGHTS.reduce((sum, w) => sum + (w.done(input) ? w.points : 0), 0);
}
