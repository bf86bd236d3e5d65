import { NAME_MAX_LENGTH, ONBOARDING_GENDERS, ONBOARDING_MAX_AGE, ONBOARDING_MIN_AGE } from '@mate/contracts';
import { Input, Select } from '@mate/ui';
import { genderOptions } from '../../profile/labels';
import { ageError, type OnboardingAnswers } from './onboarding-form';
import { StepSection } from './StepSection';

export interface StepProps {
  answers: OnboardingAnswers;
  onChange: (patch: Partial<OnboardingAnswers>) => void;
}

export function BasicInfoStep({ answers, onChange }: StepProps) {
  return (
    <StepSection title="Basic Info" lede="The essentials people see first.">
      <Input
        label="Name"
        name="name"
        autoComplete="given-name"
        required
        maxLength={NAME_MAX_LENGTH}
        value={answers.name}
        onChange={(event) => onChange({ name: event.target.value })}
      />
      <Input
        label="Age"
        name="age"
        type="number"
        inputMode="numeric"
        required
        min={ONBOARDING_MIN_AGE}
        max={ONBOARDING_MAX_AGE}
        value={answers.age}
        error={ageError(answers.age)}
        onChange={(event) => onChange({ age: event.target.value })}
      />
      <Select
        label="Gender"
        name="gender"
        required
        placeholder="Select..."
        options={genderOptions(ONBOARDING_GENDERS)}
        value={answers.gender}
        onChange={(event) => onChange({ gender: event.target.value })}
      />
    </StepSection>
  );
}
