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

export interface EventPayloads {
  'user.registered': UserRegisteredPayload;
  'user.verified': UserVerifiedPayload;
  'user.email_changed': UserEmailChangedPayload;
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
