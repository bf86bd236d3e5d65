import { act, screen, waitFor, within } from '@testing-library/react';
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

    await choosePlace(input, 'Tromsø, Norway', user);
    expect(input).toHaveValue('Tromsø, Norway');
    expect(offeredPlaces(input)).toEqual([]);
    expect(screen.getByRole('status', { name: 'Stored location' })).toHaveTextContent('Tromsø, Norway');
  });

  it("offers the server's folded matches as they are, which a datalist hid: 'Tromso' offers Tromsø, chosen with the keyboard", async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.profile.searchPlaces.mockResolvedValue([TROMSO]);
    renderWithApp(api, { children: <Field /> });

    const input = screen.getByRole('combobox', { name: 'Location' });
    expect(input).toHaveAttribute('spellcheck', 'false');
    expect(input).toHaveAttribute('placeholder', 'City, State/Country');
    await user.type(input, 'Tromso');
    // The browser filtered a datalist by the typed text, so 'Tromso' showed nothing: no ø.
    await waitFor(() => expect(offeredPlaces(input)).toEqual(['Tromsø, Norway']));
    expect(api.profile.searchPlaces).toHaveBeenLastCalledWith('Tromso', 8);
    const list = screen.getByRole('listbox', { name: 'Suggested places' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', list.id);

    await user.keyboard('{ArrowDown}');
    const option = within(list).getByRole('option', { name: 'Tromsø, Norway' });
    expect(option).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', option.id);
    await user.keyboard('{Enter}');

    expect(input).toHaveValue('Tromsø, Norway');
    expect(screen.getByRole('status', { name: 'Stored location' })).toHaveTextContent('Tromsø, Norway');
    // It closes after choosing, and the field keeps the focus.
    expect(offeredPlaces(input)).toEqual([]);
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveFocus();
  });

  it('closes the list on Escape and keeps what was typed, which stays free text', async () => {
    const user = userEvent.setup();
    const api = createFakeApi();
    api.profile.searchPlaces.mockResolvedValue([TROMSO]);
    renderWithApp(api, { children: <Field /> });

    const input = screen.getByRole('combobox', { name: 'Location' });
    await user.type(input, 'Tromso City');
    await waitFor(() => expect(offeredPlaces(input)).toEqual(['Tromsø, Norway']));
    await user.keyboard('{Escape}');

    expect(offeredPlaces(input)).toEqual([]);
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('Tromso City');
    // A second Escape does not clear the field either.
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('Tromso City');
    expect(screen.getByRole('status', { name: 'Stored location' })).toHaveTextContent('Tromso City');
    // Typing again offers the list again.
    await user.type(input, '{Backspace}');
    await waitFor(() => expect(offeredPlaces(input)).toEqual(['Tromsø, Norway']));
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
