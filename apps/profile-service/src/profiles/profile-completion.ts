import {
  PROFILE_COMPLETION_PARTS,
  profileCompletionPercentage,
  type ProfileCompletionInput,
} from '@mate/contracts';
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

/**
 * `GET /api/profile/me/completion`: the parts and their points live in the contracts, since the
 * home screen lists the parts a member has not done yet (issue 25) and must read the same rules.
 */
export const COMPLETION_WEIGHTS = PROFILE_COMPLETION_PARTS;

/** The percentage of the profile that is filled in: an integer from 0 to 100. */
export function completionPercentage(input: CompletionInput): number {
  return profileCompletionPercentage(input satisfies ProfileCompletionInput);
}
