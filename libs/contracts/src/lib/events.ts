/**
 * The domain event catalogue (ARCHITECTURE §2.1): every durable event with its one payload type,
 * its producer and its consumers. Producers write events to their outbox; the relay copies each
 * event to the queue `events.<consumer>` of every consumer listed here.
 */
export const SERVICES = {
  gateway: 'gateway',
  auth: 'auth-service',
  profile: 'profile-service',
  matching: 'matching-service',
  chat: 'chat-service',
  call: 'call-service',
  safety: 'safety-service',
  admin: 'admin-service',
  notification: 'notification-service',
} as const;
export type ServiceName = (typeof SERVICES)[keyof typeof SERVICES];

export interface UserRegisteredPayload {
  userId: string;
  email: string;
  name: string | null;
  age: number | null;
  registeredAt: string;
}
export interface UserVerifiedPayload {
  userId: string;
  verifiedAt: string;
}
export interface UserEmailChangedPayload {
  userId: string;
  oldEmail: string;
  newEmail: string;
  changedAt: string;
}

/** Everything matching needs about a member, sent whole on every change. */
export interface ProfileUpdatedPayload {
  userId: string;
  name: string | null;
  age: number | null;
  gender: string | null;
  lookingFor: string | null;
  interests: string[];
  height: number | null;
  education: string | null;
  /** Private: only services get coordinates; members see coarse distances. */
  latitude: number | null;
  longitude: number | null;
  locationText: string | null;
  hasPhoto: boolean;
  profilePicture: string | null;
  isVerified: boolean;
  onboardingCompleted: boolean;
  updatedAt: string;
}
export interface PhotoUploadedPayload {
  photoId: string;
  userId: string;
  url: string;
  uploadedAt: string;
}
export interface PhotoDeletedPayload {
  photoId: string;
  userId: string;
  deletedAt: string;
}
export interface OnboardingCompletedPayload {
  userId: string;
  completedAt: string;
  skipped: boolean;
}
export interface PreferencesUpdatedPayload {
  userId: string;
  minAge: number;
  maxAge: number;
  maxDistance: number;
  genderPreference: string[];
  filters: Record<string, unknown>;
  updatedAt: string;
}

export interface EventPayloads {
  'user.registered': UserRegisteredPayload;
  'user.verified': UserVerifiedPayload;
  'user.email_changed': UserEmailChangedPayload;
  'profile.updated': ProfileUpdatedPayload;
  'photo.uploaded': PhotoUploadedPayload;
  'photo.deleted': PhotoDeletedPayload;
  'onboarding.completed': OnboardingCompletedPayload;
  'preferences.updated': PreferencesUpdatedPayload;
}
export type EventName = keyof EventPayloads;

export interface EventDefinition {
  version: number;
  producer: ServiceName;
  consumers: readonly ServiceName[];
  description: string;
}

export const EVENT_CATALOGUE: { readonly [K in EventName]: EventDefinition } = {
  'user.registered': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile],
    description: 'An account was created; profile-service creates the empty profile.',
  },
  'user.verified': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile],
    description: 'The account email was verified; profile-service marks the profile verified.',
  },
  'user.email_changed': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.notification],
    description: 'The account email changed after the new address was verified.',
  },
  // The consumers below start in later issues; their queues keep every event until they do.
  'profile.updated': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.matching],
    description: 'A profile changed; matching-service refreshes its candidate row.',
  },
  'photo.uploaded': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    description: 'A photo entered the moderation queue (it stays visible until rejected).',
  },
  'photo.deleted': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    description: 'A photo was deleted by its owner; admin-service drops it from the queue.',
  },
  'onboarding.completed': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    description: 'A member finished (or skipped) onboarding; feeds the funnel analytics.',
  },
  'preferences.updated': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.matching],
    description: 'Match or filter preferences changed; matching-service re-filters candidates.',
  },
};

/** The envelope that travels through the outbox and the event queues. */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  version: number;
  producer: ServiceName;
  occurredAt: string;
  payload: EventPayloads[N];
}

export function eventQueueName(consumer: ServiceName): string {
  return `events.${consumer}`;
}

export function consumersOf(name: EventName): readonly ServiceName[] {
  return EVENT_CATALOGUE[name].consumers;
}

export function eventsConsumedBy(consumer: ServiceName): EventName[] {
  return (Object.keys(EVENT_CATALOGUE) as EventName[]).filter((name) =>
    EVENT_CATALOGUE[name].consumers.includes(consumer),
  );
}
