/**
 * Web push and notification preferences (spec 001 §2, §3, §7; issue 12). notification-service
 * serves `/api/notifications/*`; the member app's service worker (`/sw.js`) shows what it pushes.
 */

/** Spec 001 §9: the notification prompt appears 3 s after load (when it may appear at all). */
export const NOTIFICATION_PROMPT_DELAY_MS = 3_000;

/** The per-type switches of spec 001 §3, in the settings panel's order. */
export const NOTIFICATION_TYPES = ['newMatches', 'newMessages', 'newLikes', 'safetyAlerts', 'adminActions'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * `GET /api/notifications/preferences`. The five switches of spec 001 §3 (all default true), and
 * `privatePreviews` (beyond the spec, default false): pushes then carry no message text or name.
 */
export type NotificationPreferencesDto = Record<NotificationType, boolean> & { privatePreviews: boolean };
export type NotificationPreferenceKey = keyof NotificationPreferencesDto;
export const NOTIFICATION_PREFERENCE_KEYS: readonly NotificationPreferenceKey[] = [...NOTIFICATION_TYPES, 'privatePreviews'];

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferencesDto = {
  newMatches: true,
  newMessages: true,
  newLikes: true,
  safetyAlerts: true,
  adminActions: true,
  privatePreviews: false,
};

/** `PATCH /api/notifications/preferences`: only the changed key (spec 001 §7), e.g. `{ newLikes: false }`. */
export type NotificationPreferencesPatch = Partial<NotificationPreferencesDto>;

/** `GET /api/notifications/vapid-public-key` (a member's session, like every other member route). */
export interface VapidPublicKeyDto {
  /** The application server key, base64url (uncompressed P-256 point). */
  publicKey: string;
}

/** `POST /api/notifications/subscribe`: the browser's `PushSubscription.toJSON()`. */
export interface PushSubscriptionDto {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/**
 * `DELETE /api/notifications/unsubscribe`: the spec sends no payload; with `{ endpoint }` (body or
 * `?endpoint=`) only that device's subscription is removed, without it every subscription of the
 * member.
 */
export interface UnsubscribeRequestDto {
  endpoint?: string;
}

/** What a push carries (encrypted, RFC 8291); `/sw.js` shows it and opens `url` on click. */
export interface PushPayload {
  kind: 'new_match' | 'new_message' | 'new_like' | 'safety' | 'admin';
  title: string;
  body: string;
  /** A path of the member app: `/chat/{userId}` (a match, a message), `/discover` (a like), `/safety` (a report's receipt). */
  url: string;
  /** Same tag = the newer notification replaces the older (one per conversation). */
  tag: string;
  /** Messages the notification stands for (a collapsed burst), 1 otherwise. Never a message's text anywhere. */
  count: number;
  sentAt: string;
}

/** Words the server answers with (tests and clients share them). */
export const NotificationMessages = {
  endpointNotAllowed: 'Push endpoint must be an https URL of a public push service',
  invalidSubscription: 'Invalid push subscription',
  unknownPreference: 'Unknown notification preference',
  pushNotConfigured: 'Push notifications are not configured',
  tooManySubscriptions: 'Too many push subscriptions. Please try again later.',
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
} as const;

/**
 * Codes of notification-service's refusals, one per cause. A subscription that is malformed (its
 * fields, its keys) is `VALIDATION_FAILED`, as the DTO's own refusals.
 */
export enum NotificationErrorCode {
  /** Not an https URL of a public push service (push-endpoint.ts). */
  EndpointNotAllowed = 'PUSH_ENDPOINT_NOT_ALLOWED',
  UnknownPreference = 'UNKNOWN_PREFERENCE',
}

/** The member's notification data in a data export (issue 12). */
export interface NotificationsExportPart {
  preferences: NotificationPreferencesDto;
  /** Push subscriptions: where (the push service's origin), when; never the keys. */
  subscriptions: { endpointOrigin: string; createdAt: string; lastUsedAt: string | null }[];
  /** Emails sent to the member (template and time; the address is the account's). */
  emails: { template: string; to: string; status: string; createdAt: string }[];
}
