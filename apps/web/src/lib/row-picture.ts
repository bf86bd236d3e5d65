/**
 * How many rows of a list a phone shows on its first screen (844 px tall, rows of 64–80 px):
 * their pictures load at once; the ones further down wait until the list is scrolled near them.
 */
export const ROWS_IN_FIRST_SCREEN = 8;

/** `loading` for the picture of the list's row at `index` (0-based). */
export function rowPictureLoading(index: number): 'lazy' | undefined {
  return index < ROWS_IN_FIRST_SCREEN ? undefined : 'lazy';
}
