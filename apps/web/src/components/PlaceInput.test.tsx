import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../testing/fake-api';
import { choosePlace, offeredPlaces } from '../testing/place-input';
import { renderWithApp } from '../testing/render';
import { PlaceInput } from './PlaceInput';
import { PLACE_SEARCH_DEBOUNCE_MS } from './usePlaceSuggestions';

function Field({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <PlaceInput name="location" value={value} onChange={setValue} />
      <output aria-label="Stored location">{value}</output>
    </>
  );
}

const TROMSO = { name: 'Tromsø', country: 'Norway', label: 'Tromsø, Norway' };

describe('PlaceInput (issue 25)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('offers the places the server finds once typing pauses, and choosing one sets the field', async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.profile.searchPlaces.mockResolvedValue([TROMSO, { name: 'Trondheim', country: 'Norway', label: 'Trondheim, Norway' }]);
    renderWithApp(api, { children: <Field /> });

    const input = screen.getByRole('combobox', { name: 'Location' });
    expect(input).toHaveAttribute('autocomplete', 'off');
    expect(input).toHaveAccessibleDescription('Start typing, then choose your place from the list.');
    await user.type(input, 'Trom');
    await waitFor(() => expect(offeredPlaces(input)).toEqual(['Tromsø, Norway', 'Trondheim, Norway']));
    // One request for the pause after 'Trom', none for 'T', 'Tr' or 'Tro' typed in a burst.
    expect(api.profile.searchPlaces.mock.calls).toEqual([['Trom', 8]]);

    await choosePlace(input, 'Tromsø, Norway');
    expect(input).toHaveValue('Tromsø, Norway');
    expect(screen.getByRole('status', { name: 'Stored location' })).toHaveTextContent('Tromsø, Norway');
  });

  it('asks nothing for a single letter, and offers nothing when the search fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const api = createFakeApi();
    api.profile.searchPlaces.mockRejectedValue(new Error('Failed to search places'));
    renderWithApp(api, { children: <Field /> });
    const input = screen.getByRole('combobox', { name: 'Location' });
    await user.type(input, 'T');
    await act(() => vi.advanceTimersByTimeAsync(PLACE_SEARCH_DEBOUNCE_MS * 4));
    expect(api.profile.searchPlaces).not.toHaveBeenCalled();
    await user.type(input, 'r');
    await waitFor(() => expect(api.profile.searchPlaces).toHaveBeenCalledWith('Tr', 8));
    expect(offeredPlaces(input)).toEqual([]);
    expect(input).toHaveValue('Tr');
  });
});
