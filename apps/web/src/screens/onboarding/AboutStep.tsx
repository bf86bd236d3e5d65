import { BIO_MAX_LENGTH, INTEREST_MAX_LENGTH, ONBOARDING_BIO_MIN_LENGTH, ONBOARDING_MAX_INTERESTS } from '@mate/contracts';
import { Button, Chip, Icon, Input, Textarea } from '@mate/ui';
import { useId, useState, type KeyboardEvent } from 'react';
import type { StepProps } from './BasicInfoStep';
import { addInterest, bioLength, suggestionsFor } from './onboarding-form';
import { StepSection } from './StepSection';

export function AboutStep({ answers, onChange }: StepProps) {
  const [custom, setCustom] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chosenId = useId();
  const suggestionsId = useId();
  const length = bioLength(answers.bio);

  const add = (raw: string) => {
    const result = addInterest(answers.interests, raw);
    setError(result.error);
    if (result.interests !== answers.interests) onChange({ interests: result.interests });
    return result;
  };

  const addCustom = () => {
    const result = add(custom);
    if (!result.error) setCustom('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    addCustom();
  };

  const remove = (interest: string) => {
    setError(null);
    onChange({ interests: answers.interests.filter((i) => i !== interest) });
  };

  return (
    <StepSection title="About You" lede="A few words and the things you love help people start a conversation.">
      <Textarea
        label="Bio"
        name="bio"
        rows={5}
        maxLength={BIO_MAX_LENGTH}
        value={answers.bio}
        placeholder="What should people know about you?"
        hint={
          length >= ONBOARDING_BIO_MIN_LENGTH
            ? `${length} characters`
            : `${length}/${ONBOARDING_BIO_MIN_LENGTH} characters minimum`
        }
        liveHint
        onChange={(event) => onChange({ bio: event.target.value })}
      />

      <div className="onboarding-interests">
        <div className="chip-group__head">
          <span id={chosenId} className="mate-field__label">
            Your interests
          </span>
          <span className="chip-group__count">
            {answers.interests.length}/{ONBOARDING_MAX_INTERESTS}
          </span>
        </div>
        {answers.interests.length > 0 ? (
          <ul className="chip-group" aria-labelledby={chosenId}>
            {answers.interests.map((interest) => (
              <li key={interest}>
                <button
                  type="button"
                  className="mate-chip mate-chip--selected"
                  aria-label={`Remove ${interest}`}
                  onClick={() => remove(interest)}
                >
                  {interest}
                  <Icon name="close" size={14} />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mate-field__hint">Pick at least one.</p>
        )}

        <div className="onboarding-interests__add">
          <Input
            label="Add your own"
            name="customInterest"
            value={custom}
            maxLength={INTEREST_MAX_LENGTH}
            placeholder="e.g. Board games"
            onChange={(event) => setCustom(event.target.value)}
            onKeyDown={onKeyDown}
            containerClassName="onboarding-interests__input"
          />
          <Button variant="secondary" icon={<Icon name="plus" size={18} />} onClick={addCustom}>
            Add
          </Button>
        </div>
        {error && (
          <p className="mate-field__error" role="alert">
            {error}
          </p>
        )}

        <div role="group" aria-labelledby={suggestionsId}>
          <span id={suggestionsId} className="mate-field__label onboarding-interests__suggest-title">
            Popular interests
          </span>
          <div className="chip-group">
            {suggestionsFor(answers.interests).map((suggestion) => (
              <Chip key={suggestion} onClick={() => add(suggestion)}>
                {suggestion}
              </Chip>
            ))}
          </div>
        </div>
      </div>
    </StepSection>
  );
}
