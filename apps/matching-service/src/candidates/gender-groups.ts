import { INTERESTED_IN_OPTIONS } from '@mate/contracts';

/** The interested-in reading of a gender: the values a gender preference chooses among. */
export type GenderGroup = (typeof INTERESTED_IN_OPTIONS)[number];

/**
 * The profile stores a gender in either reading (profile form: male, female, non-binary, other;
 * onboarding: male, female, non-binary, prefer-not-to-say) while gender preferences choose among
 * male, female, non-binary and other. Both meet in the interested-in reading: each value is
 * itself, and 'prefer-not-to-say' reads as 'other' (someone who does not say is, for whoever
 * filters, neither man, woman nor non-binary). Anything else reads as not said (null).
 */
export function genderGroupOf(gender: string | null | undefined): GenderGroup | null {
  if (gender === 'prefer-not-to-say') return 'other';
  return (INTERESTED_IN_OPTIONS as readonly string[]).includes(gender ?? '') ? (gender as GenderGroup) : null;
}

/**
 * A gender preference list in the interested-in reading: each entry read as `genderGroupOf`,
 * unknown entries dropped, each group once. Empty means everyone.
 */
export function genderPreferenceOf(list: readonly string[]): GenderGroup[] {
  const groups = list.map(genderGroupOf).filter((g): g is GenderGroup => g !== null);
  return INTERESTED_IN_OPTIONS.filter((g) => groups.includes(g));
}
