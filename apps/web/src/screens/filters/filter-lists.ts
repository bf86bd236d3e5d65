import {
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  EDUCATION_OPTIONS,
  EXERCISE_OPTIONS,
  FILTER_GENDER_OPTIONS,
  FILTER_HEIGHT_MAX_CM,
  FILTER_HEIGHT_MIN_CM,
  PETS_OPTIONS,
  PREFERENCES_MAX_AGE,
  PREFERENCES_MIN_AGE,
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

type NumberKey = 'minAge' | 'maxAge' | 'maxDistance' | 'minHeight' | 'maxHeight';

export interface FilterSlider {
  key: NumberKey;
  label: string;
  min: number;
  max: number;
  /** Shown while the value is unset (null): no height filter reads as the open end. */
  unset: number;
  unit?: string;
}

/** The sliders of spec 001 §3 with the limits of §9: age 18–99, distance 1–200 km, height 140–220 cm. */
export const FILTER_SLIDERS: FilterSlider[] = [
  {
    key: 'minAge',
    label: 'Minimum age',
    min: PREFERENCES_MIN_AGE,
    max: PREFERENCES_MAX_AGE,
    unset: PREFERENCES_MIN_AGE,
  },
  {
    key: 'maxAge',
    label: 'Maximum age',
    min: PREFERENCES_MIN_AGE,
    max: PREFERENCES_MAX_AGE,
    unset: PREFERENCES_MAX_AGE,
  },
  {
    key: 'maxDistance',
    label: 'Maximum distance',
    min: DISTANCE_MIN_KM,
    max: DISTANCE_MAX_KM,
    unset: DISTANCE_MAX_KM,
    unit: 'km',
  },
  {
    key: 'minHeight',
    label: 'Minimum height',
    min: FILTER_HEIGHT_MIN_CM,
    max: FILTER_HEIGHT_MAX_CM,
    unset: FILTER_HEIGHT_MIN_CM,
    unit: 'cm',
  },
  {
    key: 'maxHeight',
    label: 'Maximum height',
    min: FILTER_HEIGHT_MIN_CM,
    max: FILTER_HEIGHT_MAX_CM,
    unset: FILTER_HEIGHT_MAX_CM,
    unit: 'cm',
  },
];

/** Spec 001 §4: toggling adds or removes a value. */
export { toggleValue } from '../../lib/toggle-value';
