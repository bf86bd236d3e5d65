import { ApiError, createApiClient, type MateApi } from '@mate/api-client';
import type { AuthResponse, OwnProfileDto, PhotoDto, SuggestionDto, UserDto } from '@mate/contracts';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { vi, type Mock } from 'vitest';

type Fake<T> = { [K in keyof T]: { [M in keyof T[K]]: T[K][M] extends (...args: infer A) => infer R ? Mock<(...args: A) => R> : never } };
export type FakeApi = Fake<MateApi>;

/** The real photo URL rules under a fake API origin. */
const photoFiles = createApiClient({ baseUrl: 'http://api.test' }).photos;

function unstubbed(name: string) {
  return vi.fn(() => Promise.reject(new Error(`${name} was not stubbed`)));
}

/** A MateApi whose every method is a mock that fails until a test says what it answers. */
export function createFakeApi(): FakeApi {
  return {
    auth: {
      register: unstubbed('auth.register'),
      login: unstubbed('auth.login'),
      logout: unstubbed('auth.logout'),
      me: unstubbed('auth.me'),
      forgotPassword: unstubbed('auth.forgotPassword'),
      verifyResetToken: unstubbed('auth.verifyResetToken'),
      resetPassword: unstubbed('auth.resetPassword'),
      requestEmailChange: unstubbed('auth.requestEmailChange'),
      verifyEmailChange: unstubbed('auth.verifyEmailChange'),
      cancelEmailChange: unstubbed('auth.cancelEmailChange'),
    },
    verification: { resend: unstubbed('verification.resend'), verify: unstubbed('verification.verify') },
    sessions: {
      mySessions: unstubbed('sessions.mySessions'),
      deleteSession: unstubbed('sessions.deleteSession'),
      deleteOtherSessions: unstubbed('sessions.deleteOtherSessions'),
    },
    profile: {
      getMyProfile: unstubbed('profile.getMyProfile'),
      updateMyProfile: unstubbed('profile.updateMyProfile'),
      getCompletion: unstubbed('profile.getCompletion'),
      completeOnboarding: unstubbed('profile.completeOnboarding'),
      getUserProfile: unstubbed('profile.getUserProfile'),
      addPhoto: unstubbed('profile.addPhoto'),
      deletePhoto: unstubbed('profile.deletePhoto'),
      setPrimaryPhoto: unstubbed('profile.setPrimaryPhoto'),
      reorderPhotos: unstubbed('profile.reorderPhotos'),
      // The location field asks while typing; a test that cares says what it answers.
      searchPlaces: vi.fn(() => Promise.resolve([])),
    },
    photos: {
      list: unstubbed('photos.list'),
      upload: unstubbed('photos.upload'),
      delete: unstubbed('photos.delete'),
      setPrimary: unstubbed('photos.setPrimary'),
      reorder: unstubbed('photos.reorder'),
      // Synchronous and real: the file a browser loads (sized, on the API origin), not a stand-in.
      fileUrl: vi.fn(photoFiles.fileUrl),
      srcSet: vi.fn(photoFiles.srcSet),
    },
    preferences: {
      getMine: unstubbed('preferences.getMine'),
      updateMine: unstubbed('preferences.updateMine'),
      getFilters: unstubbed('preferences.getFilters'),
      updateFilters: unstubbed('preferences.updateFilters'),
    },
    matching: {
      getSuggestions: unstubbed('matching.getSuggestions'),
      like: unstubbed('matching.like'),
      pass: unstubbed('matching.pass'),
      rewind: unstubbed('matching.rewind'),
      getMyMatches: unstubbed('matching.getMyMatches'),
      getMatchStats: unstubbed('matching.getMatchStats'),
      likesReceived: unstubbed('matching.likesReceived'),
    },
    chat: {
      getConversations: unstubbed('chat.getConversations'),
      getConversation: unstubbed('chat.getConversation'),
      markAsRead: unstubbed('chat.markAsRead'),
      getUnreadCount: unstubbed('chat.getUnreadCount'),
    },
    safety: {
      block: unstubbed('safety.block'),
      unblock: unstubbed('safety.unblock'),
      getBlockedUsers: unstubbed('safety.getBlockedUsers'),
      report: unstubbed('safety.report'),
      unmatch: unstubbed('safety.unmatch'),
    },
    calls: {
      getHistory: unstubbed('calls.getHistory'),
      getHistoryPage: unstubbed('calls.getHistoryPage'),
      getStats: unstubbed('calls.getStats'),
      getCall: unstubbed('calls.getCall'),
      getIceServers: unstubbed('calls.getIceServers'),
      // Like the real client, the status never fails: transcription is off unless a test says so.
      whisperStatus: vi.fn(() => Promise.resolve({ available: false })),
      transcribe: unstubbed('calls.transcribe'),
    },
    notifications: {
      getVapidPublicKey: unstubbed('notifications.getVapidPublicKey'),
      subscribe: unstubbed('notifications.subscribe'),
      unsubscribe: unstubbed('notifications.unsubscribe'),
      getPreferences: unstubbed('notifications.getPreferences'),
      updatePreferences: unstubbed('notifications.updatePreferences'),
    },
    gdpr: {
      exportData: unstubbed('gdpr.exportData'),
      deleteAccount: unstubbed('gdpr.deleteAccount'),
    },
  } as FakeApi;
}

export const aUser = (overrides: Partial<UserDto> = {}): UserDto => ({
  id: 'a1b2c3d4-e5f6-7890-abcd-ef0123456789',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'member',
  isVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

export const aProfile = (overrides: Partial<OwnProfileDto> = {}): OwnProfileDto => ({
  id: 'p1',
  userId: 'a1b2c3d4-e5f6-7890-abcd-ef0123456789',
  name: 'Ada',
  age: 30,
  gender: null,
  bio: null,
  location: null,
  height: null,
  occupation: null,
  education: null,
  lookingFor: null,
  interests: [],
  photos: [],
  profilePicture: null,
  isVerified: true,
  profileCompleted: false,
  onboardingCompleted: true,
  locationResolved: null,
  ...overrides,
});

export const anAuthResponse = (user: UserDto = aUser(), token = 'jwt-token'): AuthResponse => ({ token, user });

/** Puts a signed-in session in storage, as a previous visit would have left it. */
export function storeSession(user: UserDto = aUser(), token = 'stored-token'): void {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  window.localStorage.setItem(LEGACY_TOKEN_KEY, token);
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

/** The two ends of a sign-out call, for `it.each`: the local session is cleared after either (spec 000 §4). */
export const logoutOutcomes: Array<[string, (api: FakeApi) => void]> = [
  ['the call answered', (api) => api.auth.logout.mockResolvedValue(undefined)],
  ['the call failed', (api) => api.auth.logout.mockRejectedValue(new ApiError('Network error', 0))],
];

/** What storage holds of a session: the token under both keys, and the user (all null once signed out). */
export const storedSession = (): Array<string | null> =>
  [AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY, AUTH_USER_KEY].map((key) => window.localStorage.getItem(key));

/**
 * The fake API of a member who is already signed in and onboarded: the session is in storage and
 * `me` and `getMyProfile` answer, so the app shell lets a screen render; the rest fails until stubbed.
 */
export function signedInApi(profile: OwnProfileDto = aProfile(), user: UserDto = aUser()): FakeApi {
  const api = createFakeApi();
  storeSession(user);
  api.auth.me.mockResolvedValue(user);
  api.profile.getMyProfile.mockResolvedValue(profile);
  return api;
}

export const aPhoto = (n: number, overrides: Partial<PhotoDto> = {}): PhotoDto => ({
  id: `ph${n}`,
  url: `/api/photos/files/ph${n}/large.webp`,
  isPrimary: n === 1,
  order: n - 1,
  ...overrides,
});

type SuggestionOverrides = Partial<SuggestionDto['user']> & Partial<Omit<SuggestionDto, 'user'>>;

/** The n-th suggested member (user id `u<n>`, name `Member <n>`), with one photo unless told otherwise. */
export const aSuggestion = (n: number, overrides: SuggestionOverrides = {}): SuggestionDto => {
  const { score = 80, photos = [aPhoto(100 + n, { isPrimary: true, order: 0 })], distance = null, ...user } = overrides;
  return {
    user: {
      id: `u${n}`,
      name: `Member ${n}`,
      age: 30,
      bio: null,
      location: null,
      occupation: null,
      interests: [],
      profilePicture: photos[0]?.url ?? null,
      ...user,
    },
    score,
    photos,
    distance,
  };
};
