import {
  DRINKING_VALUES,
  EXERCISE_VALUES,
  PETS_VALUES,
  SMOKING_VALUES,
  type AttachPhotoRequest,
  type DrinkingValue,
  type ExerciseValue,
  type PetsValue,
  type SmokingValue,
  type CompleteOnboardingRequest,
  type MemberProfileDto,
  type OwnProfileDto,
  type PlaceSuggestionDto,
  type PhotoDto,
  type PhotoReorderRequest,
  type ProfileCompletionDto,
  type ProfileDto,
  type PublicProfileDto,
} from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

/** `PUT /api/profile/me`: only the fields sent change; `null` clears one. */
export interface ProfileUpdateRequest {
  name?: string | null;
  age?: number | null;
  gender?: string | null;
  bio?: string | null;
  location?: string | null;
  height?: number | null;
  occupation?: string | null;
  education?: string | null;
  lookingFor?: string | null;
  interests?: string[] | null;
  /** Lifestyle (issue 8): one of the stored values of spec 001 §3, or null to clear. */
  smoking?: SmokingValue | null;
  drinking?: DrinkingValue | null;
  exercise?: ExerciseValue | null;
  pets?: PetsValue | null;
}

/** One entry of the reorder payload (spec 000 §3). */
export type PhotoOrder = PhotoReorderRequest['photoOrders'][number];

export interface ProfileApi {
  /** GET /api/profile/me?t=<now>, never from a cache: gating decisions need the live flags. */
  getMyProfile(): Promise<OwnProfileDto>;
  /** PUT /api/profile/me. */
  updateMyProfile(update: ProfileUpdateRequest): Promise<OwnProfileDto>;
  /** GET /api/profile/me/completion. */
  getCompletion(): Promise<ProfileCompletionDto>;
  /**
   * POST /api/profile/me/complete-onboarding. Without a body it only marks onboarding complete
   * ('Skip for now'); with one the server saves the profile too. Answers the profile when the
   * server sends it, else null.
   */
  completeOnboarding(request?: CompleteOnboardingRequest): Promise<OwnProfileDto | null>;
  /**
   * GET /api/profile/{userId}: another member's public profile, with the coarse distance label
   * between the two (null when unknown, or from a server that does not send it).
   */
  getUserProfile(userId: string): Promise<MemberProfileDto>;
  /**
   * GET /api/profile/places?q=&limit=: places whose name starts with what the member typed
   * (accents and special letters folded by the server), for the location field's list.
   */
  searchPlaces(query: string, limit?: number): Promise<PlaceSuggestionDto[]>;
  /** The photo calls under /api/profile/me/photos (the same photos as the `photos` area). */
  addPhoto(request: AttachPhotoRequest): Promise<PhotoDto | null>;
  deletePhoto(id: string): Promise<void>;
  setPrimaryPhoto(id: string): Promise<void>;
  reorderPhotos(photoOrders: PhotoOrder[]): Promise<void>;
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

/** A stored lifestyle value of spec 001 §3, else null (an unknown value is not shown). */
function oneOf<T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : null;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1;
}

/** A photo in camelCase; `index` stands in for a missing id or order. */
export function normalizePhoto(raw: Raw, index = 0): PhotoDto {
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
export function normalizeProfile(input: unknown): OwnProfileDto {
  const outer = (input && typeof input === 'object' ? input : {}) as Raw;
  const raw = (outer['profile'] && typeof outer['profile'] === 'object' ? outer['profile'] : outer) as Raw;
  const photos = Array.isArray(raw['photos'])
    ? (raw['photos'] as unknown[]).filter((p): p is Raw => !!p && typeof p === 'object').map(normalizePhoto)
    : [];
  const interests = Array.isArray(raw['interests'])
    ? (raw['interests'] as unknown[]).filter((i): i is string => typeof i === 'string')
    : [];
  const primary = photos.find((p) => p.isPrimary) ?? photos[0];
  const locationResolved = pick(raw, 'locationResolved', 'location_resolved');
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
    locationResolved: typeof locationResolved === 'boolean' ? locationResolved : null,
    smoking: oneOf(SMOKING_VALUES, raw['smoking']),
    drinking: oneOf(DRINKING_VALUES, raw['drinking']),
    exercise: oneOf(EXERCISE_VALUES, raw['exercise']),
    pets: oneOf(PETS_VALUES, raw['pets']),
  };
}

function isRecord(value: unknown): value is Raw {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function looksLikeProfile(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const raw = isRecord(body['profile']) ? body['profile'] : body;
  return typeof raw['id'] === 'string' || typeof raw['userId'] === 'string' || typeof raw['user_id'] === 'string';
}

function percentageOf(body: unknown): number {
  const value = isRecord(body) ? num(pick(body, 'percentage', 'completion')) : num(body);
  if (value === null) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

function toPublicProfile(profile: ProfileDto): PublicProfileDto {
  return {
    id: profile.id,
    userId: profile.userId,
    name: profile.name,
    age: profile.age,
    gender: profile.gender,
    bio: profile.bio,
    location: profile.location,
    height: profile.height,
    occupation: profile.occupation,
    education: profile.education,
    lookingFor: profile.lookingFor,
    interests: profile.interests,
    photos: profile.photos,
    profilePicture: profile.profilePicture,
    smoking: profile.smoking ?? null,
    drinking: profile.drinking ?? null,
    exercise: profile.exercise ?? null,
    pets: profile.pets ?? null,
  };
}

const SEARCH_PLACES_FAILED = 'Failed to search places';

/** A place as the server sends it; anything without a label is dropped. */
function toPlaceSuggestion(raw: unknown): PlaceSuggestionDto[] {
  if (!isRecord(raw)) return [];
  const label = text(raw['label']);
  if (!label) return [];
  return [{ label, name: text(raw['name']) ?? label, country: text(raw['country']) ?? '' }];
}

const photoPath = (id: string) => `/api/profile/me/photos/${encodeURIComponent(id)}`;

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
    async updateMyProfile(update) {
      const body = await http.put<unknown>('/api/profile/me', {
        body: update,
        fallbackMessage: ClientMessages.updateProfileFailed,
      });
      const result: OwnProfileDto = normalizeProfile(body);
      const inner = isRecord(body) && isRecord(body['profile']) ? body['profile'] : undefined;
      const note = text(isRecord(body) ? (body['locationNote'] ?? inner?.['locationNote']) : undefined);
      if (note) result.locationNote = note;
      return result;
    },
    async getCompletion() {
      const body = await http.get<unknown>('/api/profile/me/completion', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.getProfileCompletionFailed,
      });
      return { percentage: percentageOf(body) };
    },
    async completeOnboarding(request) {
      const body = await http.post<unknown>('/api/profile/me/complete-onboarding', {
        body: request,
        fallbackMessage: ClientMessages.completeOnboardingFailed,
      });
      return looksLikeProfile(body) ? normalizeProfile(body) : null;
    },
    async getUserProfile(userId) {
      const body = await http.get<unknown>(`/api/profile/${encodeURIComponent(userId)}`, {
        fallbackMessage: ClientMessages.getUserProfileFailed,
      });
      const distance = isRecord(body) ? text(body['distance']) : null;
      return { ...toPublicProfile(normalizeProfile(body)), distance };
    },
    async searchPlaces(query, limit) {
      const body = await http.get<unknown>('/api/profile/places', {
        query: limit === undefined ? { q: query } : { q: query, limit },
        fallbackMessage: SEARCH_PLACES_FAILED,
      });
      return Array.isArray(body) ? body.flatMap(toPlaceSuggestion) : [];
    },
    async addPhoto(request) {
      const body = await http.post<unknown>('/api/profile/me/photos', {
        body: request,
        fallbackMessage: ClientMessages.addPhotoFailed,
      });
      const raw = isRecord(body) && isRecord(body['photo']) ? body['photo'] : body;
      return isRecord(raw) && typeof raw['id'] === 'string' ? normalizePhoto(raw) : null;
    },
    async deletePhoto(id) {
      await http.delete<unknown>(photoPath(id), { fallbackMessage: ClientMessages.deletePhotoFailed });
    },
    async setPrimaryPhoto(id) {
      await http.put<unknown>(`${photoPath(id)}/primary`, { fallbackMessage: ClientMessages.setPrimaryPhotoFailed });
    },
    async reorderPhotos(photoOrders) {
      await http.put<unknown>('/api/profile/me/photos/reorder', {
        body: { photoOrders },
        fallbackMessage: ClientMessages.reorderPhotosFailed,
      });
    },
  };
}
