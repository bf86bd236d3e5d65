import { LOCATION_MAX_LENGTH, type PlaceSuggestionDto } from '@mate/contracts';
import { Input, cx } from '@mate/ui';
import { useCombobox } from 'downshift';
import { useEffect, useState, type ChangeEvent } from 'react';
import { usePlaceSuggestions } from './usePlaceSuggestions';
import './place-input.css';

export interface PlaceInputProps {
  name: string;
  value: string;
  onChange(value: string): void;
  label?: string;
  required?: boolean;
  error?: string;
  autoFocus?: boolean;
}

const placeLabel = (place: PlaceSuggestionDto | null) => place?.label ?? '';

function offeredText(count: number): string {
  return `${count} ${count === 1 ? 'place' : 'places'} found. Use the up and down arrow keys to move, Enter to choose.`;
}

/**
 * The location field of onboarding and Edit Profile: free text (the value is whatever is typed),
 * with the places the server knows offered as you type in a list under the field. Choosing one
 * stores a label the server's geocoder reads back as that place, so distance matching works.
 *
 * An ARIA 1.2 combobox built with downshift's `useCombobox`, not `<input list>` + `<datalist>`:
 * the server folds diacritics (typing 'Tromso' finds 'Tromsø, Norway'), and the list must show
 * exactly those matches, but browsers filter a datalist's options by what was typed again
 * (Chromium hides Tromsø for 'Tromso'). Downshift gives the keyboard (ArrowDown/Up move, Enter
 * chooses, Escape closes), pointer and touch choice and the combobox/listbox roles; the list only
 * shows when the server offered something, so Enter on free text still submits the form.
 */
export function PlaceInput({ name, value, onChange, label = 'Location', required, error, autoFocus }: PlaceInputProps) {
  const places = usePlaceSuggestions(value);
  // Opened by typing, closed by choosing, Escape or leaving the field; shown only with places.
  const [open, setOpen] = useState(false);
  const isOpen = open && places.length > 0;
  const { getInputProps, getMenuProps, getItemProps, highlightedIndex, setHighlightedIndex } = useCombobox({
    items: places,
    itemToString: placeLabel,
    itemToKey: placeLabel,
    inputValue: value,
    isOpen,
    onIsOpenChange: ({ isOpen: nowOpen }) => setOpen(nowOpen),
    // Typing reaches the form through the input's onChange below, at once (so the caret stays
    // where it is); choosing an option (click, Enter, Tab) arrives here with the option's label.
    onInputValueChange: ({ type, inputValue }) => {
      if (type !== useCombobox.stateChangeTypes.InputChange) onChange(inputValue);
    },
    stateReducer: (state, { type, changes }) =>
      // Escape only closes the list: it never clears what the member typed.
      type === useCombobox.stateChangeTypes.InputKeyDownEscape
        ? { ...changes, inputValue: state.inputValue, selectedItem: state.selectedItem }
        : changes,
  });

  // A new answer from the server is a new list: no option of the old one stays highlighted.
  useEffect(() => {
    setHighlightedIndex(-1);
  }, [places, setHighlightedIndex]);

  return (
    <div className={cx('place-input', isOpen && 'place-input--open')}>
      <Input
        label={label}
        name={name}
        required={required}
        error={error}
        autoFocus={autoFocus}
        spellCheck={false}
        placeholder="City, State/Country"
        hint="Start typing, then choose your place from the list."
        maxLength={LOCATION_MAX_LENGTH}
        {...getInputProps({
          // The Input's own <label> names the field.
          'aria-labelledby': undefined,
          onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value),
          onBlur: () => setOpen(false),
        })}
        // The browser's own history would cover the places list (downshift sets it too).
        autoComplete="off"
      />
      <ul {...getMenuProps({ 'aria-label': 'Suggested places' })} className="place-input__menu" hidden={!isOpen}>
        {isOpen &&
          places.map((place, index) => (
            <li
              key={place.label}
              className={cx('place-input__option', index === highlightedIndex && 'place-input__option--highlighted')}
              {...getItemProps({ item: place, index })}
            >
              {place.label}
            </li>
          ))}
      </ul>
      <p className="mate-visually-hidden" aria-live="polite">
        {isOpen ? offeredText(places.length) : ''}
      </p>
    </div>
  );
}
