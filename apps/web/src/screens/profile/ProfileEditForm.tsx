import {
  BIO_MAX_LENGTH,
  EDUCATION_MAX_LENGTH,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  NAME_MAX_LENGTH,
  OCCUPATION_MAX_LENGTH,
  PROFILE_GENDERS,
  PROFILE_INTERESTS,
  PROFILE_LOOKING_FOR,
  PROFILE_MAX_AGE,
  PROFILE_MIN_AGE,
  type OwnProfileDto,
  type ProfileDto,
} from '@mate/contracts';
import { Alert, Button, Card, Chip, Icon, Input, Select, Textarea, type SelectOption } from '@mate/ui';
import { useId, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { PlaceInput } from '../../components/PlaceInput';
import { toggleValue } from '../../lib/toggle-value';
import {
  genderLabel,
  genderOptions,
  LIFESTYLE_CHOICES,
  lookingForLabel,
} from '../../profile/labels';
import {
  formValuesOf,
  profileUpdateOf,
  validateProfileForm,
  type ProfileFormErrors,
  type ProfileFormValues,
} from './profile-form';
import { useUpdateProfile } from './useUpdateProfile';

export interface ProfileEditFormProps {
  profile: ProfileDto;
  onSaved: (saved: OwnProfileDto) => void;
  onCancel?: () => void;
  /** Opened from the profile's "place not found" notice: the location field takes the focus. */
  focusLocation?: boolean;
}

/** Keeps a value the list does not offer (e.g. one chosen in onboarding) selectable and visible. */
function withCurrent(
  options: SelectOption[],
  current: string,
  label: (value: string) => string,
): SelectOption[] {
  if (!current || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label: label(current) }];
}

type TextFieldKey = Exclude<keyof ProfileFormValues, 'interests'>;

/** Spec 000 §2 Edit Profile form: Save Profile and Cancel, a live bio counter, interests from 18. */
export function ProfileEditForm({ profile, onSaved, onCancel, focusLocation }: ProfileEditFormProps) {
  const [values, setValues] = useState<ProfileFormValues>(() => formValuesOf(profile));
  const [errors, setErrors] = useState<ProfileFormErrors>({});
  const update = useUpdateProfile();
  const interestsLabelId = useId();
  const lifestyleLabelId = useId();

  const set = <K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  /** What every text field, select and the bio share: name, value, its error if any, and the update. */
  const field = (key: TextFieldKey) => ({
    name: key,
    value: values[key],
    error: errors[key as keyof ProfileFormErrors],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      set(key, event.target.value),
  });

  // The 18 of the spec, plus any the member already has from elsewhere (onboarding's own entries).
  const interestChoices = useMemo(
    () => [
      ...PROFILE_INTERESTS,
      ...profile.interests.filter((i) => !(PROFILE_INTERESTS as readonly string[]).includes(i)),
    ],
    [profile.interests],
  );
  const genderChoices = withCurrent(genderOptions(PROFILE_GENDERS), values.gender, genderLabel);
  const lookingForChoices = withCurrent(
    PROFILE_LOOKING_FOR.map(({ value, label }) => ({ value, label })),
    values.lookingFor,
    lookingForLabel,
  );

  const toggleInterest = (interest: string) => set('interests', toggleValue(values.interests, interest));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateProfileForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    update.mutate(profileUpdateOf(values), { onSuccess: onSaved });
  };

  const saveError = update.isError ? update.error?.message || 'Failed to save profile' : null;

  return (
    <Card tone="strong" padding="lg" title="Edit Profile" icon={<Icon name="edit" size={20} />}>
      <form className="profile-form" onSubmit={onSubmit} noValidate aria-label="Edit Profile">
        {saveError && (
          <Alert tone="error" className="profile-form__error">
            {saveError}
          </Alert>
        )}
        <div className="profile-form__grid">
          <Input
            label="Name"
            autoComplete="name"
            maxLength={NAME_MAX_LENGTH}
            {...field('name')}
          />
          <Input
            label="Age"
            type="number"
            inputMode="numeric"
            min={PROFILE_MIN_AGE}
            max={PROFILE_MAX_AGE}
            {...field('age')}
          />
          <Select
            label="Gender"
            placeholder="Select..."
            options={genderChoices}
            {...field('gender')}
          />
          <Select
            label="Looking For"
            placeholder="Select..."
            options={lookingForChoices}
            {...field('lookingFor')}
          />
        </div>

        <Textarea
          label="Bio"
          rows={5}
          maxLength={BIO_MAX_LENGTH}
          placeholder="Tell people a little about yourself"
          hint={`${values.bio.length}/${BIO_MAX_LENGTH} characters`}
          liveHint
          {...field('bio')}
        />

        <div className="profile-form__grid">
          <PlaceInput
            name="location"
            value={values.location}
            autoFocus={focusLocation}
            onChange={(location) => set('location', location)}
          />
          <Input
            label="Height"
            type="number"
            inputMode="numeric"
            min={HEIGHT_MIN_CM}
            max={HEIGHT_MAX_CM}
            hint="In cm"
            {...field('height')}
          />
          <Input
            label="Occupation"
            autoComplete="organization-title"
            maxLength={OCCUPATION_MAX_LENGTH}
            {...field('occupation')}
          />
          <Input
            label="Education"
            maxLength={EDUCATION_MAX_LENGTH}
            {...field('education')}
          />
        </div>

        <div role="group" className="profile-form__lifestyle" aria-labelledby={lifestyleLabelId}>
          <div className="chip-group__head">
            <span id={lifestyleLabelId} className="mate-field__label">
              Lifestyle
            </span>
          </div>
          <div className="profile-form__grid">
            {LIFESTYLE_CHOICES.map(({ key, label, options }) => (
              <Select
                key={key}
                label={label}
                placeholder="Not set"
                options={options}
                {...field(key)}
              />
            ))}
          </div>
        </div>

        <div role="group" className="profile-form__interests" aria-labelledby={interestsLabelId}>
          <div className="chip-group__head">
            <span id={interestsLabelId} className="mate-field__label">
              Interests
            </span>
            <span className="chip-group__count">{values.interests.length} selected</span>
          </div>
          <div className="chip-group">
            {interestChoices.map((interest) => (
              <Chip
                key={interest}
                selected={values.interests.includes(interest)}
                onClick={() => toggleInterest(interest)}
              >
                {interest}
              </Chip>
            ))}
          </div>
        </div>

        <div className="profile-form__actions">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel} disabled={update.isPending}>
              Cancel
            </Button>
          )}
          <Button type="submit" disabled={update.isPending} aria-busy={update.isPending || undefined}>
            {update.isPending ? 'Saving...' : 'Save Profile'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
