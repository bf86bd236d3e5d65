import { ONBOARDING_LOOKING_FOR } from '@mate/contracts';
import { Select } from '@mate/ui';
import { PlaceInput } from '../../components/PlaceInput';
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
      <PlaceInput
        name="location"
        required
        value={answers.location}
        onChange={(location) => onChange({ location })}
      />
    </StepSection>
  );
}
