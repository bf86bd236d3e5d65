import { LOCATION_MAX_LENGTH, ONBOARDING_LOOKING_FOR } from '@mate/contracts';
import { Input, Select } from '@mate/ui';
import { ONBOARDING_LOOKING_FOR_LABELS } from '../../profile/labels';
import type { StepProps } from './BasicInfoStep';
import { StepSection } from './StepSection';

const LOOKING_FOR_OPTIONS = ONBOARDING_LOOKING_FOR.map((value) => ({
  value,
  label: ONBOARDING_LOOKING_FOR_LABELS[value] ?? value,
}));

export function PreferencesStep({ answers, onChange }: StepProps) {
  return (
    <StepSection title="Preferences" lede="What you're looking for and where you are.">
      <Select
        label="Looking For"
        name="lookingFor"
        required
        placeholder="Select..."
        options={LOOKING_FOR_OPTIONS}
        value={answers.lookingFor}
        onChange={(event) => onChange({ lookingFor: event.target.value })}
      />
      <Input
        label="Location"
        name="location"
        required
        autoComplete="address-level2"
        placeholder="City, State/Country"
        maxLength={LOCATION_MAX_LENGTH}
        value={answers.location}
        onChange={(event) => onChange({ location: event.target.value })}
      />
    </StepSection>
  );
}
