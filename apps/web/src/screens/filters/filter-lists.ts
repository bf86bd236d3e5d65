import {
  EDUCATION_OPTIONS,
  EXERCISE_OPTIONS,
  FILTER_GENDER_OPTIONS,
  PETS_OPTIONS,
  PROFILE_INTERESTS,
  RELATIONSHIP_GOAL_OPTIONS,
  SMOKING_DRINKING_OPTIONS,
  type FilterPreferencesDto,
} from '@mate/contracts';

type ListKey = {
  [K in keyof FilterPreferencesDto]-?: FilterPreferencesDto[K] extends string[] ? K : never;
}[keyof FilterPreferencesDto];

export interface FilterList {
  key: ListKey;
  title: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}

/** The option lists of spec 001 §3, in its order, with its labels; then the required interests. */
export const FILTER_LISTS: FilterList[] = [
  { key: 'genderPreference', title: 'Gender', options: FILTER_GENDER_OPTIONS },
  { key: 'educationPreference', title: 'Education', options: EDUCATION_OPTIONS },
  { key: 'relationshipGoalPreference', title: 'Relationship Goals', options: RELATIONSHIP_GOAL_OPTIONS },
  { key: 'smokingPreference', title: 'Smoking', options: SMOKING_DRINKING_OPTIONS },
  { key: 'drinkingPreference', title: 'Drinking', options: SMOKING_DRINKING_OPTIONS },
  { key: 'exercisePreference', title: 'Exercise', options: EXERCISE_OPTIONS },
  { key: 'petsPreference', title: 'Pets', options: PETS_OPTIONS },
  {
    key: 'requiredInterests',
    title: 'Required Interests',
    options: PROFILE_INTERESTS.map((interest) => ({ value: interest, label: interest })),
  },
];

/** Spec 001 §4: toggling adds or removes a value. */
export function toggleValue(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}
