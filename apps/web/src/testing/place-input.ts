import { waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

/** The list a location field (a combobox) controls, when it is there. */
function placeList(input: HTMLElement): HTMLElement | null {
  return document.getElementById(input.getAttribute('aria-controls') ?? '');
}

/** The places offered under a location field: the options shown in the listbox it controls. */
export function offeredPlaces(input: HTMLElement): string[] {
  const list = placeList(input);
  return list ? within(list).queryAllByRole('option').map((option) => option.textContent ?? '') : [];
}

/**
 * Waits until `label` is offered under the field, then chooses it as a member does: a click (or
 * tap) on the option. Pass the test's own `user` when it has one (e.g. with fake timers).
 */
export async function choosePlace(input: HTMLElement, label: string, user: UserEvent = userEvent.setup()): Promise<void> {
  await waitFor(() => expect(offeredPlaces(input)).toContain(label));
  const list = placeList(input) as HTMLElement;
  await user.click(within(list).getByRole('option', { name: label }));
}
