import {
  EXERCISE_OPTIONS,
  PETS_OPTIONS,
  PROFILE_LOOKING_FOR,
  SMOKING_DRINKING_OPTIONS,
  type LifestyleField,
} from '@mate/contracts';

const GENDER_LABELS: Record<string, string> = {
  male: 'Male',
  female: 'Female',
  'non-binary': 'Non-binary',
  other: 'Other',
  'prefer-not-to-say': 'Prefer not to say',
};

/** Readable labels of the onboarding 'looking for' list (spec 000 §3 gives only the values). */
export const ONBOARDING_LOOKING_FOR_LABELS: Record<string, string> = {
  'long-term': 'Long-term relationship',
  'short-term': 'Short-term dating',
  friendship: 'Friendship',
  casual: 'Something casual',
  'not-sure': 'Not sure yet',
};

export function genderLabel(value: string): string {
  return GENDER_LABELS[value] ?? value.replace(/-/g, ' ');
}

/** Spec 000 §2: the profile shows Looking For with hyphens as spaces ('not-sure' → 'not sure'). */
export function lookingForText(value: string): string {
  return value.replace(/-/g, ' ');
}

/** A label for a lookingFor value from either list, for a select that must show the current value. */
export function lookingForLabel(value: string): string {
  const profileOption = PROFILE_LOOKING_FOR.find((option) => option.value === value);
  if (profileOption) return profileOption.label;
  const text = ONBOARDING_LOOKING_FOR_LABELS[value] ?? lookingForText(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function genderOptions(values: readonly string[]) {
  return values.map((value) => ({ value, label: genderLabel(value) }));
}

/** The lifestyle fields of spec 001 §3, in the order the form and the details show them. */
export const LIFESTYLE_CHOICES: readonly {
  key: LifestyleField;
  label: string;
  options: readonly { value: string; label: string }[];
}[] = [
  { key: 'smoking', label: 'Smoking', options: SMOKING_DRINKING_OPTIONS },
  { key: 'drinking', label: 'Drinking', options: SMOKING_DRINKING_OPTIONS },
  { key: 'exercise', label: 'Exercise', options: EXERCISE_OPTIONS },
  { key: 'pets', label: 'Pets', options: PETS_OPTIONS },
];

/**
 * The spec's label for a stored lifestyle value ('prefer_not_to_say' → 'Prefer not to say'); a value
 * the list does not know is shown readably rather than hidden.
 */
export function lifestyleLabel(key: LifestyleField, value: string): string {
  const field = LIFESTYLE_CHOICES.find((candidate) => candidate.key === key);
  const option = field?.options.find((candidate) => candidate.value === value);
  if (option) return option.label;
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
