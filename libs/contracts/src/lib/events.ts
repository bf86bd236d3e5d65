import type { DrinkingValue, ExerciseValue, PetsValue, SmokingValue } from './profile';
import type { PairState, ReportReason } from './safety';

/**
 * The domain event catalogue (ARCHITECTURE §2.1): every durable event with its one payload type,
 * its producer, its consumers and the aggregate it describes. Producers write events to their
 * outbox; the relay copies each event to the queue `events.<consumer>` of every consumer listed
 * here (docs/adr/0004-event-backbone.md). Each payload type has one class in the server kit
 * (`EVENT_PAYLOAD_CLASSES`, libs/server-kit/src/lib/events/payloads, each `implements` its
 * interface here): the kit's consumer reads every payload against it once, before any handler.
 * The classes stay out of this lib, which the web apps bundle.
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
  /**
   * Schema version 2: the account's name and age again, so a verification applied before (or
   * instead of) an older registration still gives the consumer everything the registration had.
   * Absent in version 1 envelopes.
   */
  name?: string | null;
  age?: number | null;
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
  /**
   * Lifestyle (issue 8, stored values of spec 001 §3); null = not said. Additive and optional:
   * schema version stays 1 (ADR 0003, "Lifestyle fields"): profile-service always sends them, and
   * an envelope written before them lacks them, which a consumer reads as null (the profile had
   * none then).
   */
  smoking?: SmokingValue | null;
  drinking?: DrinkingValue | null;
  exercise?: ExerciseValue | null;
  pets?: PetsValue | null;
  /**
   * What the Discover card shows (issue 8), additive and optional like the lifestyle fields:
   * profile-service always sends them; an older envelope lacks them (read as null / no photos).
   * `photos` are the visible photos in display order, the primary first.
   */
  bio?: string | null;
  occupation?: string | null;
  photos?: ProfilePhotoRef[];
  updatedAt: string;
}
export interface ProfilePhotoRef {
  id: string;
  url: string;
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

/** A like (matching-service); `matched` when it completed a mutual like. */
export interface LikeCreatedPayload {
  likerId: string;
  likedId: string;
  matched: boolean;
  createdAt: string;
}
/** A mutual like became a match; `userIds` in ascending order. */
export interface MatchCreatedPayload {
  matchId: string;
  userIds: [string, string];
  createdAt: string;
  /**
   * The version of the pair's safety state (user.blocked, user.unblocked, match.ended of
   * `pairIdOf(userIds)`) matching had applied when it made the match, 0 when none (issue 10,
   * ADR 0014). Every pair event ends the pair's match, so a match is live exactly while no pair
   * event of a higher version exists: consumers compare versions, never two services' clocks.
   * Additive (schema stays 1): absent in envelopes written before it.
   */
  pairVersion?: number;
}

/**
 * A chat message was stored (chat-service). A fact, once per message: it carries no content
 * (events are kept in outboxes and queues; a consumer that needs the text asks chat-service).
 */
export interface MessageSentPayload {
  messageId: string;
  conversationId: string;
  senderId: string;
  recipientId: string;
  /** The message's sequence number in its conversation. */
  seq: number;
  /** Length of the content in characters. */
  length: number;
  /** Whether it was the conversation's first message (response-rate analytics). */
  first: boolean;
  sentAt: string;
}

/**
 * Safety's pair events (issue 10, ADR 0014): one aggregate per pair of members (`pairId`), versioned
 * 1, 2, 3 ... in commit order, each carrying the pair's whole block state (`blockedBy`), so a
 * consumer that applies only the newest never misses a block. Every pair event also means "the
 * pair has no match now": a block unmatches, an unblock does not restore the match.
 */
export interface UserBlockedPayload extends PairState {
  blockerId: string;
  blockedId: string;
  /** The match this block ended, when safety-service knew of one (consumers end any match anyway). */
  endedMatchId: string | null;
  blockedAt: string;
}
export interface UserUnblockedPayload extends PairState {
  /** The member who lifted their block (`blockedBy` says whether the other still blocks them). */
  blockerId: string;
  blockedId: string;
  unblockedAt: string;
}
export interface MatchEndedPayload extends PairState {
  /** The match that ended. */
  matchId: string;
  /** The member who unmatched. */
  endedBy: string;
  reason: 'unmatch';
  endedAt: string;
}
/**
 * A member reported another (a fact: every report matters once). Carries no details text (events
 * are kept in outboxes and queues); admin-service reads the report from safety-service.
 */
export interface ReportCreatedPayload {
  reportId: string;
  reporterId: string;
  reportedId: string;
  reason: ReportReason;
  hasDetails: boolean;
  createdAt: string;
}

/**
 * A member deleted their account (auth-service, issue 12; docs/adr/0016-member-data.md). Every
 * service erases what it holds of the member, idempotently, and anonymises what another member
 * keeps; events about the member that arrive later are dropped by the kit's consumer.
 */
export interface UserDeletedPayload {
  userId: string;
  deletedAt: string;
}

/**
 * An admin suspended a member (auth-service owns suspension; issue 13). State-carrying on the
 * `user` aggregate: `user.suspended` and `user.unsuspended` each say the whole suspension state,
 * so a consumer that applies only the newest is right. Sessions and sockets end at once (auth);
 * matching hides the member, chat and calls refuse them, notifications stop.
 */
export interface UserSuspendedPayload {
  userId: string;
  suspended: true;
  /** The admin's reason (shown to admins; never to other members). */
  reason: string;
  suspendedAt: string;
}
export interface UserUnsuspendedPayload {
  userId: string;
  suspended: false;
  unsuspendedAt: string;
}

/** A member passed on another (matching-service, issue 13): swipes per member in analytics. */
export interface PassCreatedPayload {
  passerId: string;
  passedId: string;
  createdAt: string;
}

/**
 * A call reached its final status (call-service, issue 13): calls in analytics. `durationSeconds`
 * is 0 for a call never answered.
 */
export interface CallEndedPayload {
  callId: string;
  callerId: string;
  calleeId: string;
  status: 'completed' | 'missed' | 'rejected' | 'failed';
  durationSeconds: number;
  endedAt: string;
}

/**
 * A member used the app on a (UTC) day (auth-service, issue 13): once a day per member, from the
 * first authenticated request of the day (the session store notes it; auth-service turns each
 * note into this fact and the account's last activity). DAU/WAU/MAU, retention and churn read it.
 */
export interface MemberActivePayload {
  userId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  at: string;
}

/** An admin resolved a report (safety-service carries out admin-service's command, issue 13). */
export interface ReportResolvedPayload {
  reportId: string;
  reporterId: string;
  reportedId: string;
  reason: ReportReason;
  status: 'reviewed' | 'dismissed';
  reportedAt: string;
  resolvedAt: string;
}

/**
 * A photo's moderation changed (profile-service, issue 13): scored by the classifier (`scored`),
 * approved or rejected by an admin. On `rejected` notification-service tells the owner (the
 * reason is the admin's text).
 */
export interface PhotoModeratedPayload {
  photoId: string;
  userId: string;
  outcome: 'scored' | 'approved' | 'rejected';
  riskScore: number | null;
  /** Hidden from other members after this change. */
  hidden: boolean;
  reason: string | null;
  at: string;
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
  'like.created': LikeCreatedPayload;
  'match.created': MatchCreatedPayload;
  'message.sent': MessageSentPayload;
  'user.blocked': UserBlockedPayload;
  'user.unblocked': UserUnblockedPayload;
  'match.ended': MatchEndedPayload;
  'report.created': ReportCreatedPayload;
  'user.deleted': UserDeletedPayload;
  'user.suspended': UserSuspendedPayload;
  'user.unsuspended': UserUnsuspendedPayload;
  'pass.created': PassCreatedPayload;
  'call.ended': CallEndedPayload;
  'member.active': MemberActivePayload;
  'report.resolved': ReportResolvedPayload;
  'photo.moderated': PhotoModeratedPayload;
}
export type EventName = keyof EventPayloads;

/**
 * What a state-carrying event describes. The producer's outbox numbers the events of each
 * aggregate (1, 2, 3, ... in commit order) and consumers apply an event only when its number is
 * higher than the last one they applied for that aggregate.
 */
export type AggregateType = 'user' | 'profile' | 'photo' | 'preferences' | 'pair';

export interface EventAggregate<N extends EventName> {
  type: AggregateType;
  /** The payload field that holds the aggregate's id. */
  idField: keyof EventPayloads[N] & string;
}

export interface EventDefinition<N extends EventName = EventName> {
  /** Schema version of the payload (not the aggregate's version, which each envelope carries). */
  version: number;
  producer: ServiceName;
  /** Services the relay routes the event to today: only services that are deployed. */
  consumers: readonly ServiceName[];
  /**
   * Services that will consume it once they exist. They are not routed to (an undeployed queue
   * fills forever and reads as "behind"); they catch up by replay or the producer's republish.
   */
  later: readonly ServiceName[];
  /**
   * The aggregate whose state the event carries, or null for a pure fact (each one matters on its
   * own, so consumers handle every one once, whatever its order).
   */
  aggregate: EventAggregate<N> | null;
  description: string;
}

export const EVENT_CATALOGUE: { readonly [K in EventName]: EventDefinition<K> } = {
  'user.registered': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile, SERVICES.admin],
    later: [],
    aggregate: { type: 'user', idField: 'userId' },
    description: 'An account was created; profile-service creates the empty profile.',
  },
  'user.verified': {
    version: 2,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile, SERVICES.admin],
    later: [],
    aggregate: { type: 'user', idField: 'userId' },
    description:
      'The account email was verified; profile-service marks the profile verified (and fills name and age if the registration was skipped as older).',
  },
  'user.email_changed': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.notification],
    later: [],
    // A fact: every change is told to its old address, even one that arrives after a newer change.
    aggregate: null,
    description: 'The account email changed after the new address was verified.',
  },
  // Services of later issues are listed under `later`, not routed to, and fill their queues from
  // the outbox (replay) or the producer's republish.
  'profile.updated': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.matching, SERVICES.chat, SERVICES.safety, SERVICES.call, SERVICES.notification],
    later: [],
    aggregate: { type: 'profile', idField: 'userId' },
    description:
      'A profile changed (its whole state); matching-service refreshes its candidate row, chat-service the name and picture its conversations show, safety-service the blocked list entry and the profile a report keeps.',
  },
  'photo.uploaded': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: { type: 'photo', idField: 'photoId' },
    description: 'A photo entered the moderation queue (it stays visible until rejected).',
  },
  'photo.deleted': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: { type: 'photo', idField: 'photoId' },
    description: 'A photo was deleted by its owner; admin-service drops it from the queue.',
  },
  'onboarding.completed': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: null,
    description: 'A member finished (or skipped) onboarding; feeds the funnel analytics.',
  },
  'preferences.updated': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.matching],
    later: [],
    aggregate: { type: 'preferences', idField: 'userId' },
    description: 'Match or filter preferences changed (their whole state); matching-service re-filters candidates.',
  },
  'like.created': {
    version: 1,
    producer: SERVICES.matching,
    consumers: [SERVICES.notification, SERVICES.admin],
    later: [],
    // A fact: every like matters once, whatever its order.
    aggregate: null,
    description: 'A member liked another (matched when it completed a mutual like); feeds push and analytics.',
  },
  'match.created': {
    version: 1,
    producer: SERVICES.matching,
    consumers: [SERVICES.chat, SERVICES.safety, SERVICES.call, SERVICES.notification, SERVICES.admin],
    later: [],
    aggregate: null,
    description: 'Two members liked each other; chat opens their conversation, safety-service knows the match an unmatch ends, notifications tell both.',
  },
  'message.sent': {
    version: 1,
    producer: SERVICES.chat,
    consumers: [SERVICES.notification, SERVICES.admin],
    later: [],
    // A fact: every message matters once; its order is its conversation's `seq`.
    aggregate: null,
    description: 'A chat message was stored (no content); feeds push notifications and analytics.',
  },
  'user.blocked': {
    version: 1,
    producer: SERVICES.safety,
    consumers: [SERVICES.matching, SERVICES.chat, SERVICES.profile, SERVICES.call, SERVICES.notification, SERVICES.admin],
    later: [],
    aggregate: { type: 'pair', idField: 'pairId' },
    description:
      'A member blocked another (the pair state, whole): matching ends their match and never suggests them, chat closes and hides the conversation, profile-service answers each one 404 for the other.',
  },
  'user.unblocked': {
    version: 1,
    producer: SERVICES.safety,
    consumers: [SERVICES.matching, SERVICES.chat, SERVICES.profile, SERVICES.call, SERVICES.notification],
    later: [],
    aggregate: { type: 'pair', idField: 'pairId' },
    description:
      'A member lifted a block (the pair state, whole): when neither blocks the other any more they may be suggested again; the match and the conversation stay ended.',
  },
  'match.ended': {
    version: 1,
    producer: SERVICES.safety,
    consumers: [SERVICES.matching, SERVICES.chat, SERVICES.call, SERVICES.notification],
    later: [],
    aggregate: { type: 'pair', idField: 'pairId' },
    description:
      'A member unmatched (the pair state, whole): matching ends the match (they are not suggested again), chat closes and hides the conversation.',
  },
  'report.created': {
    version: 1,
    producer: SERVICES.safety,
    consumers: [SERVICES.notification, SERVICES.admin],
    later: [],
    // A fact: every report matters once.
    aggregate: null,
    description: 'A member reported another; feeds the moderators\' queue and analytics (admin issue), and tells the reporter their report was received (a safety alert push).',
  },
  'user.deleted': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile, SERVICES.matching, SERVICES.chat, SERVICES.call, SERVICES.safety, SERVICES.notification, SERVICES.admin],
    later: [],
    // A fact: it happens once per member; the kit drops events about an erased member after it.
    aggregate: null,
    description:
      'A member deleted their account: every service erases the member (photo files included) and anonymises what another member keeps (ADR 0016).',
  },
  'user.suspended': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile, SERVICES.matching, SERVICES.chat, SERVICES.call, SERVICES.notification, SERVICES.admin],
    later: [],
    aggregate: { type: 'user', idField: 'userId' },
    description:
      'An admin suspended a member (the whole suspension state): matching stops suggesting them, chat and calls refuse them both ways, profile-service hides their profile from others, notifications stop.',
  },
  'user.unsuspended': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.profile, SERVICES.matching, SERVICES.chat, SERVICES.call, SERVICES.notification, SERVICES.admin],
    later: [],
    aggregate: { type: 'user', idField: 'userId' },
    description: 'An admin lifted a suspension (the whole suspension state): every service restores what suspension took away.',
  },
  'pass.created': {
    version: 1,
    producer: SERVICES.matching,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: null,
    description: 'A member passed on another; analytics counts swipes (likes and passes).',
  },
  'call.ended': {
    version: 1,
    producer: SERVICES.call,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: null,
    description: 'A call reached its final status; analytics counts calls.',
  },
  'member.active': {
    version: 1,
    producer: SERVICES.auth,
    consumers: [SERVICES.admin],
    later: [],
    // A fact: once per member and UTC day.
    aggregate: null,
    description: 'A member used the app on a day (once a day per member); analytics reads DAU/WAU/MAU, retention and churn from it.',
  },
  'report.resolved': {
    version: 1,
    producer: SERVICES.safety,
    consumers: [SERVICES.admin],
    later: [],
    aggregate: null,
    description: "An admin's resolution of a report was carried out; analytics reads resolution times.",
  },
  'photo.moderated': {
    version: 1,
    producer: SERVICES.profile,
    consumers: [SERVICES.notification, SERVICES.admin],
    later: [],
    aggregate: null,
    description: 'A photo was scored, approved or rejected; notification-service tells the owner of a rejection, analytics counts decisions.',
  },
};

/** The envelope that travels through the outbox and the event queues. */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  /** Schema version of the payload (EVENT_CATALOGUE[name].version when it was written). */
  version: number;
  producer: ServiceName;
  occurredAt: string;
  /**
   * The aggregate a state-carrying event describes and its version (1, 2, 3, ... per aggregate,
   * in commit order). Absent on pure facts and on envelopes written before versions existed:
   * those are handled once per event id, in any order.
   */
  aggregateType?: AggregateType;
  aggregateId?: string;
  aggregateVersion?: number;
  /** The request that caused the event; the consumer logs its handling under the same id. */
  requestId?: string;
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

/** The aggregate id an event's payload names, or null for a pure fact. */
export function aggregateIdOf<N extends EventName>(name: N, payload: EventPayloads[N]): string | null {
  const aggregate = EVENT_CATALOGUE[name].aggregate as EventAggregate<N> | null;
  if (!aggregate) return null;
  const id = payload[aggregate.idField];
  return typeof id === 'string' ? id : null;
}

/** True for the names this build's catalogue knows (a newer producer may write others). */
export function isKnownEvent(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOGUE, name);
}
