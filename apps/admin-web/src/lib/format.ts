/** Shown for a missing age, gender or location (spec 001 §2). */
export const NOT_AVAILABLE = 'N/A';
/** Shown for a missing lastActive (spec 001 §2). */
export const NEVER = 'Never';

export function orNA(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return NOT_AVAILABLE;
  const text = String(value).trim();
  return text ? text : NOT_AVAILABLE;
}

export function formatDateTime(value: string | null | undefined, fallback = NOT_AVAILABLE): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toLocaleString();
}

export function formatDate(value: string | null | undefined, fallback = NOT_AVAILABLE): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toLocaleDateString();
}

/** A rate in [0, 1] as a percent with one decimal ("42.5%"). */
export function percent(rate: number | null | undefined): string {
  if (typeof rate !== 'number' || !Number.isFinite(rate)) return NOT_AVAILABLE;
  return `${(Math.round(rate * 1000) / 10).toString()}%`;
}

export function decimal(value: number | null | undefined, digits = 1): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return NOT_AVAILABLE;
  return value.toFixed(digits);
}

export function count(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return NOT_AVAILABLE;
  return value.toLocaleString();
}

export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
