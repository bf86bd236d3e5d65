import { createAuthApi, type AuthApi } from './auth';
import { createCallsApi, type CallsApi } from './calls';
import { createChatApi, type ChatApi } from './chat';
import { createGdprApi, type GdprApi } from './gdpr';
import { HttpClient, type ApiClientConfig } from './http';
import { createMatchingApi, type MatchingApi } from './matching';
import { createNotificationsApi, type NotificationsApi } from './notifications';
import { createPhotosApi, type PhotosApi } from './photos';
import { createPreferencesApi, type PreferencesApi } from './preferences';
import { createProfileApi, type ProfileApi } from './profile';
import { createSafetyApi, type SafetyApi } from './safety';
import { createSessionsApi, type SessionsApi } from './sessions';
import { createVerificationApi, type VerificationApi } from './verification';

/** The typed client of the Mate API, one property per area. */
export interface MateApi {
  auth: AuthApi;
  verification: VerificationApi;
  sessions: SessionsApi;
  profile: ProfileApi;
  photos: PhotosApi;
  preferences: PreferencesApi;
  matching: MatchingApi;
  chat: ChatApi;
  safety: SafetyApi;
  calls: CallsApi;
  notifications: NotificationsApi;
  gdpr: GdprApi;
}

export function createApiClient(config: ApiClientConfig = {}): MateApi {
  const http = new HttpClient(config);
  return {
    auth: createAuthApi(http),
    verification: createVerificationApi(http),
    sessions: createSessionsApi(http),
    profile: createProfileApi(http),
    photos: createPhotosApi(http),
    preferences: createPreferencesApi(http),
    matching: createMatchingApi(http),
    chat: createChatApi(http),
    safety: createSafetyApi(http),
    calls: createCallsApi(http),
    notifications: createNotificationsApi(http),
    gdpr: createGdprApi(http),
  };
}
