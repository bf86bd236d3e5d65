import { LOCATION_MAX_LENGTH } from '@mate/contracts';
import { Input } from '@mate/ui';
import { useId, type ChangeEvent } from 'react';
import { usePlaceSuggestions } from './usePlaceSuggestions';

export interface PlaceInputProps {
  name: string;
  value: string;
  onChange(value: string): void;
  label?: string;
  required?: boolean;
  error?: string;
  autoFocus?: boolean;
}

/**
 * The location field of onboarding and Edit Profile: free text, with the places the server knows
 * offered as you type through the browser's own suggestion list (`<input list>` + `<datalist>`),
 * which phones show above the keyboard and screen readers announce. Picking one stores a label
 * the server's geocoder reads back as that place, so distance matching works for the member.
 */
export function PlaceInput({ name, value, onChange, label = 'Location', required, error, autoFocus }: PlaceInputProps) {
  const listId = `places-${useId()}`;
  const places = usePlaceSuggestions(value);
  return (
    <div className="place-input">
      <Input
        label={label}
        name={name}
        required={required}
        error={error}
        autoFocus={autoFocus}
        list={listId}
        // The browser's own history would cover the places list.
        autoComplete="off"
        spellCheck={false}
        placeholder="City, State/Country"
        hint="Start typing, then choose your place from the list."
        maxLength={LOCATION_MAX_LENGTH}
        value={value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      <datalist id={listId}>
        {places.map((place) => (
          <option key={place.label} value={place.label} />
        ))}
      </datalist>
    </div>
  );
}
