import { fireEvent, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** The places the browser offers under a location field: the options of the list it names. */
export function offeredPlaces(input: HTMLElement): string[] {
  const list = document.getElementById(input.getAttribute('list') ?? '');
  return list ? Array.from(list.querySelectorAll('option'), (option) => option.value) : [];
}

/**
 * Waits until `label` is offered under the field, then chooses it as the browser does when the
 * member taps an entry of the list: the field's value becomes the option's value (an input event).
 */
export async function choosePlace(input: HTMLElement, label: string): Promise<void> {
  await waitFor(() => expect(offeredPlaces(input)).toContain(label));
  fireEvent.change(input, { target: { value: label } });
}
