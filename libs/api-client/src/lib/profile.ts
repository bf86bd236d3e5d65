import type { PhotoDto, ProfileDto } from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface ProfileApi {
  /** GET /api/profile/me?t=<now>, never from a cache: gating decisions need the live flags. */
  getMyProfile(): Promise<ProfileDto>;
  completeOnboarding(): Promise<void>;
}

type Raw = Record<string, unknown>;

function pick(raw: Raw, ...keys: string[]): unknown {
  for (const key of keys) {
    if (raw[key] !== undefined && raw[key] !== null) return raw[key];
  }
  return undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1;
}

function normalizePhoto(raw: Raw, index: number): PhotoDto {
  return {
    id: text(raw['id']) ?? String(index),
    url: text(raw['url']) ?? '',
    isPrimary: flag(pick(raw, 'isPrimary', 'is_primary')),
    order: num(pick(raw, 'order', 'sortOrder', 'sort_order')) ?? index,
  };
}

/**
 * Spec 000 §3: the server may answer in snake_case; the client works in camelCase, and the three
 * flags default to false. camelCase wins when both are present.
 */
export function normalizeProfile(input: unknown): ProfileDto {
  const outer = (input && typeof input === 'object' ? input : {}) as Raw;
  const raw = (outer['profile'] && typeof outer['profile'] === 'object' ? outer['profile'] : outer) as Raw;
  const photos = Array.isArray(raw['photos'])
    ? (raw['photos'] as unknown[]).filter((p): p is Raw => !!p && typeof p === 'object').map(normalizePhoto)
    : [];
  const interests = Array.isArray(raw['interests'])
    ? (raw['interests'] as unknown[]).filter((i): i is string => typeof i === 'string')
    : [];
  const primary = photos.find((p) => p.isPrimary) ?? photos[0];
  return {
    id: text(raw['id']) ?? '',
    userId: text(pick(raw, 'userId', 'user_id')) ?? text(raw['id']) ?? '',
    name: text(raw['name']),
    age: num(raw['age']),
    gender: text(raw['gender']),
    bio: text(raw['bio']),
    location: text(raw['location']),
    height: num(raw['height']),
    occupation: text(raw['occupation']),
    education: text(raw['education']),
    lookingFor: text(pick(raw, 'lookingFor', 'looking_for')),
    interests,
    photos,
    profilePicture: text(pick(raw, 'profilePicture', 'profile_picture')) ?? primary?.url ?? null,
    isVerified: flag(pick(raw, 'isVerified', 'is_verified')),
    profileCompleted: flag(pick(raw, 'profileCompleted', 'profile_completed')),
    onboardingCompleted: flag(pick(raw, 'onboardingCompleted', 'onboarding_completed')),
  };
}

export function createProfileApi(http: HttpClient, now: () => number = Date.now): ProfileApi {
  return {
    async getMyProfile() {
      const body = await http.get<unknown>('/api/profile/me', {
        query: { t: now() },
        cache: 'no-store',
        fallbackMessage: ClientMessages.getProfileFailed,
      });
      return normalizeProfile(body);
    },
    async completeOnboarding() {
      await http.post<unknown>('/api/profile/me/complete-onboarding', {
        fallbackMessage: ClientMessages.completeOnboardingFailed,
      });
    },
  };
}
