import {
  DEFAULT_MAX_DISTANCE_KM,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  INTERESTED_IN_OPTIONS,
  PREFERENCES_MAX_AGE,
  PREFERENCES_MIN_AGE,
  ProfileMessages,
  SECOND,
  type PreferencesDto,
} from '@mate/contracts';
import { Alert, Button, Card, Chip, Icon, Input, Slider, Spinner, PageHeader } from '@mate/ui';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { toggleValue } from '../../lib/toggle-value';
import { genderLabel } from '../../profile/labels';
import { useMatchPreferences, useSaveMatchPreferences } from './usePreferences';

/** Spec 000 §9: the success message stays 3 s. */
export const PREFERENCES_MESSAGE_DURATION = 3 * SECOND;
export const PREFERENCES_SAVED = 'Preferences saved successfully!';
export const PREFERENCES_SAVE_FAILED = 'Failed to save preferences';

interface AgeText {
  minAge: string;
  maxAge: string;
}

function parseAge(value: string): number | null {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? null : parsed;
}

function ageProblems({ minAge, maxAge }: AgeText): Partial<AgeText> {
  const problems: Partial<AgeText> = {};
  const range = `Enter an age between ${PREFERENCES_MIN_AGE} and ${PREFERENCES_MAX_AGE}`;
  const min = parseAge(minAge);
  const max = parseAge(maxAge);
  if (min === null || min < PREFERENCES_MIN_AGE || min > PREFERENCES_MAX_AGE) problems.minAge = range;
  if (max === null || max < PREFERENCES_MIN_AGE || max > PREFERENCES_MAX_AGE) problems.maxAge = range;
  if (!problems.minAge && !problems.maxAge && min !== null && max !== null && min > max) {
    problems.maxAge = ProfileMessages.ageRangeOrder;
  }
  return problems;
}

function PreferencesForm({ initial }: { initial: PreferencesDto }) {
  const save = useSaveMatchPreferences();
  const [ages, setAges] = useState<AgeText>({
    minAge: String(initial.minAge),
    maxAge: String(initial.maxAge),
  });
  const [distance, setDistance] = useState(initial.maxDistance || DEFAULT_MAX_DISTANCE_KM);
  const [genders, setGenders] = useState<string[]>(initial.genderPreference);
  const [problems, setProblems] = useState<Partial<AgeText>>({});
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const gendersLabelId = useId();
  const gendersHintId = useId();

  useEffect(() => () => clearTimeout(timer.current), []);

  const toggleGender = (gender: string) => setGenders((current) => toggleValue(current, gender));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = ageProblems(ages);
    setProblems(found);
    if (found.minAge || found.maxAge) return;
    clearTimeout(timer.current);
    setMessage(null);
    save.mutate(
      {
        ...initial,
        minAge: parseAge(ages.minAge) ?? PREFERENCES_MIN_AGE,
        maxAge: parseAge(ages.maxAge) ?? PREFERENCES_MAX_AGE,
        maxDistance: distance,
        genderPreference: genders,
      },
      {
        onSuccess: () => {
          setMessage({ tone: 'success', text: PREFERENCES_SAVED });
          timer.current = setTimeout(() => setMessage(null), PREFERENCES_MESSAGE_DURATION);
        },
        onError: () => setMessage({ tone: 'error', text: PREFERENCES_SAVE_FAILED }),
      },
    );
  };

  return (
    <form className="preferences-form" onSubmit={onSubmit} noValidate aria-label="Match Preferences">
      <Card tone="strong" title="Age Range" icon={<Icon name="user" size={20} />}>
        <div className="preferences-form__ages">
          <Input
            label="Minimum age"
            name="minAge"
            type="number"
            inputMode="numeric"
            min={PREFERENCES_MIN_AGE}
            max={PREFERENCES_MAX_AGE}
            value={ages.minAge}
            error={problems.minAge}
            onChange={(event) => setAges((current) => ({ ...current, minAge: event.target.value }))}
          />
          <Input
            label="Maximum age"
            name="maxAge"
            type="number"
            inputMode="numeric"
            min={PREFERENCES_MIN_AGE}
            max={PREFERENCES_MAX_AGE}
            value={ages.maxAge}
            error={problems.maxAge}
            onChange={(event) => setAges((current) => ({ ...current, maxAge: event.target.value }))}
          />
        </div>
      </Card>

      <Card tone="strong" title="Distance" icon={<Icon name="map-pin" size={20} />}>
        <Slider
          label="Maximum distance"
          name="maxDistance"
          min={DISTANCE_MIN_KM}
          max={DISTANCE_MAX_KM}
          value={distance}
          onValueChange={setDistance}
          format={(km) => `${km} km`}
        />
      </Card>

      <Card tone="strong" title="Interested In" icon={<Icon name="heart" size={20} />}>
        <div
          role="group"
          aria-labelledby={gendersLabelId}
          aria-describedby={genders.length === 0 ? gendersHintId : undefined}
        >
          <span id={gendersLabelId} className="mate-visually-hidden">
            Interested in
          </span>
          <div className="chip-group">
            {INTERESTED_IN_OPTIONS.map((gender) => (
              <Chip key={gender} selected={genders.includes(gender)} onClick={() => toggleGender(gender)}>
                {genderLabel(gender)}
              </Chip>
            ))}
          </div>
          {genders.length === 0 && (
            <p id={gendersHintId} className="mate-field__hint preferences-form__hint">
              Select at least one
            </p>
          )}
        </div>
      </Card>

      {message && <Alert tone={message.tone}>{message.text}</Alert>}

      <div className="preferences-form__actions">
        <Button type="submit" size="lg" loading={save.isPending}>
          Save Preferences
        </Button>
      </div>
    </form>
  );
}

/** `/preferences` (spec 000 §2): who the member would like to meet. */
export function PreferencesScreen() {
  const preferences = useMatchPreferences();
  useDocumentTitle('Match Preferences');
  return (
    <div className="screen screen--medium">
      <PageHeader title="Match Preferences" subtitle="Who you would like to meet." />
      {preferences.isPending ? (
        <Card>
          <div className="screen--center">
            <Spinner label="Loading preferences..." showLabel />
          </div>
        </Card>
      ) : preferences.isError ? (
        <Alert tone="error" title="Failed to load preferences">
          {preferences.error.message}
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void preferences.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : (
        <PreferencesForm initial={preferences.data} />
      )}
    </div>
  );
}
