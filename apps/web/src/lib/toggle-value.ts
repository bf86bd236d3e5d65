/** Adds `value` to `list`, or removes it when already there (chip toggles: filters, genders, interests). */
export function toggleValue(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}
