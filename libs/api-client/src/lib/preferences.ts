import type { FilterPreferencesDto, PreferencesDto } from '@mate/contracts';
import { DEFAULT_FILTER_PREFERENCES, DEFAULT_PREFERENCES } from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface PreferencesApi {
  /** GET /api/preferences/me: match preferences (spec 000 §3); missing fields take the defaults. */
  getMine(): Promise<PreferencesDto>;
  /** PUT /api/preferences/me with the preferences object. */
  updateMine(preferences: PreferencesDto): Promise<PreferencesDto>;
  /** GET /api/profile/me/preferences: filter preferences (spec 001 §3). */
  getFilters(): Promise<FilterPreferencesDto>;
  /** PUT /api/profile/me/preferences with the whole filter object. */
  updateFilters(filters: FilterPreferencesDto): Promise<FilterPreferencesDto>;
}

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function unwrap(body: unknown, key: string): Raw | null {
  if (!isRecord(body)) return null;
  return isRecord(body[key]) ? (body[key] as Raw) : body;
}

function num(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return fallback;
}

function optionalNum(value: unknown): number | null {
  const parsed = num(value, Number.NaN);
  return Number.isNaN(parsed) ? null : parsed;
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function normalizePreferences(body: unknown): PreferencesDto {
  const raw = unwrap(body, 'preferences') ?? {};
  return {
    minAge: num(raw['minAge'], DEFAULT_PREFERENCES.minAge),
    maxAge: num(raw['maxAge'], DEFAULT_PREFERENCES.maxAge),
    maxDistance: num(raw['maxDistance'], DEFAULT_PREFERENCES.maxDistance),
    genderPreference: list(raw['genderPreference']),
    interests: list(raw['interests']),
    dealbreakers: list(raw['dealbreakers']),
  };
}

export function normalizeFilterPreferences(body: unknown): FilterPreferencesDto {
  const raw = unwrap(body, 'preferences') ?? {};
  return {
    minAge: num(raw['minAge'], DEFAULT_FILTER_PREFERENCES.minAge),
    maxAge: num(raw['maxAge'], DEFAULT_FILTER_PREFERENCES.maxAge),
    maxDistance: num(raw['maxDistance'], DEFAULT_FILTER_PREFERENCES.maxDistance),
    minHeight: optionalNum(raw['minHeight']),
    maxHeight: optionalNum(raw['maxHeight']),
    genderPreference: list(raw['genderPreference']),
    educationPreference: list(raw['educationPreference']),
    relationshipGoalPreference: list(raw['relationshipGoalPreference']),
    smokingPreference: list(raw['smokingPreference']),
    drinkingPreference: list(raw['drinkingPreference']),
    exercisePreference: list(raw['exercisePreference']),
    petsPreference: list(raw['petsPreference']),
    requiredInterests: list(raw['requiredInterests']),
  };
}

/**
 * The answer's shape to a save is not promised: what was sent is what is saved, with whatever
 * the server echoes back (bare or under `preferences`) laid over it.
 */
function savedOrSent<T extends object>(body: unknown, sent: T, normalize: (raw: unknown) => T): T {
  return isRecord(body) ? normalize({ ...sent, ...(unwrap(body, 'preferences') ?? {}) }) : sent;
}

export function createPreferencesApi(http: HttpClient): PreferencesApi {
  return {
    async getMine() {
      const body = await http.get<unknown>('/api/preferences/me', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.getPreferencesFailed,
      });
      return normalizePreferences(body);
    },
    async updateMine(preferences) {
      const body = await http.put<unknown>('/api/preferences/me', {
        body: preferences,
        fallbackMessage: ClientMessages.updatePreferencesFailed,
      });
      return savedOrSent(body, preferences, normalizePreferences);
    },
    async getFilters() {
      const body = await http.get<unknown>('/api/profile/me/preferences', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.getPreferencesFailed,
      });
      return normalizeFilterPreferences(body);
    },
    async updateFilters(filters) {
      const body = await http.put<unknown>('/api/profile/me/preferences', {
        body: filters,
        fallbackMessage: ClientMessages.updatePreferencesFailed,
      });
      return savedOrSent(body, filters, normalizeFilterPreferences);
    },
  };
}
