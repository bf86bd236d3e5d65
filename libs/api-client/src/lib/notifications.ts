import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_PREFERENCE_KEYS,
  type NotificationPreferencesDto,
  type NotificationPreferencesPatch,
  type PushSubscriptionDto,
  type VapidPublicKeyDto,
} from '@mate/contracts';
import { ApiError } from './errors';
import type { HttpClient } from './http';

/**
 * Fallbacks of the notification calls, shown only when the server gives no `error`. The VAPID
 * one is spec 001 §8's; the others are not in the spec and are named like their siblings.
 */
export const NotificationClientMessages = {
  vapidKeyFailed: 'Failed to get VAPID public key',
  subscribeFailed: 'Failed to subscribe to notifications',
  unsubscribeFailed: 'Failed to unsubscribe from notifications',
  getPreferencesFailed: 'Failed to get notification preferences',
  updatePreferencesFailed: 'Failed to update notification preferences',
} as const;

export interface NotificationsApi {
  /** GET /api/notifications/vapid-public-key → the application server key (base64url). */
  getVapidPublicKey(): Promise<string>;
  /** POST /api/notifications/subscribe with the browser's `PushSubscription.toJSON()`. */
  subscribe(subscription: PushSubscriptionDto): Promise<unknown>;
  /**
   * DELETE /api/notifications/unsubscribe: with an endpoint only that device's subscription goes,
   * without one every subscription of the member.
   */
  unsubscribe(endpoint?: string): Promise<unknown>;
  /** GET /api/notifications/preferences; a switch missing from the answer takes its default. */
  getPreferences(): Promise<NotificationPreferencesDto>;
  /** PATCH /api/notifications/preferences with only the changed key (spec 001 §7). */
  updatePreferences(patch: NotificationPreferencesPatch): Promise<unknown>;
}

/** The six switches from an answer of any shape: booleans kept, anything else the default. */
export function readNotificationPreferences(body: unknown): NotificationPreferencesDto {
  const source = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const preferences = { ...DEFAULT_NOTIFICATION_PREFERENCES };
  for (const key of NOTIFICATION_PREFERENCE_KEYS) {
    if (typeof source[key] === 'boolean') preferences[key] = source[key];
  }
  return preferences;
}

export function createNotificationsApi(http: HttpClient): NotificationsApi {
  return {
    async getVapidPublicKey() {
      const body = await http.get<Partial<VapidPublicKeyDto> | undefined>('/api/notifications/vapid-public-key', {
        fallbackMessage: NotificationClientMessages.vapidKeyFailed,
      });
      const key = body?.publicKey;
      if (typeof key !== 'string' || key.trim() === '') throw new ApiError(NotificationClientMessages.vapidKeyFailed, 200);
      return key;
    },
    subscribe(subscription) {
      return http.post('/api/notifications/subscribe', {
        body: subscription,
        fallbackMessage: NotificationClientMessages.subscribeFailed,
      });
    },
    unsubscribe(endpoint) {
      return http.delete('/api/notifications/unsubscribe', {
        body: endpoint ? { endpoint } : undefined,
        fallbackMessage: NotificationClientMessages.unsubscribeFailed,
      });
    },
    async getPreferences() {
      const body = await http.get<unknown>('/api/notifications/preferences', {
        cache: 'no-store',
        fallbackMessage: NotificationClientMessages.getPreferencesFailed,
      });
      return readNotificationPreferences(body);
    },
    updatePreferences(patch) {
      return http.patch('/api/notifications/preferences', {
        body: patch,
        fallbackMessage: NotificationClientMessages.updatePreferencesFailed,
      });
    },
  };
}
