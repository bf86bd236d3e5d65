import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  aggregateIdOf,
  EVENT_CATALOGUE,
  orderedPairOf,
  pairIdOf,
  type EventName,
  type EventPayloads,
  type PreferencesUpdatedPayload,
  type ProfileUpdatedPayload,
  type SuggestionDto,
} from '@mate/contracts';
import { EventConsumer, realtimeStreamName, type EventOutcome } from '@mate/server-kit';
import {
  eventEnvelope,
  startServiceTestBed,
  type ServiceTestBed,
  type TestDatabaseSource,
  type TestEnv,
} from '@mate/server-kit/testing';
import { AppModule } from '../app.module';
import { POOL_START } from '../matching/pool-start';

/** The profile part of a member as profile.updated carries it, minus the id and time. */
export type ProfileFields = Omit<ProfileUpdatedPayload, 'userId' | 'updatedAt'>;
/** The preferences of a member: the match fields and the filter preferences of spec 001 §3. */
export type PreferenceFields = Omit<PreferencesUpdatedPayload, 'userId' | 'updatedAt' | 'filters'> &
  Record<string, unknown>;

/** A place far (over 300 km) from every other place handed out, so each test has its own world. */
export interface Place {
  latitude: number;
  longitude: number;
  locationText: string;
}

export interface TestMember {
  userId: string;
  token: string;
}

export interface MatchingTestBed extends ServiceTestBed {
  consumer: EventConsumer;
  /** A place no other test uses (members there see only each other, and members of no place). */
  place(): Place;
  /** A place `km` kilometres north of `from`. */
  north(from: Place, km: number): Place;
  /**
   * A suggestible member with a live session, announced as profile-service does: profile.updated
   * then preferences.updated, each delivered through the consumer with the next version. `userId`
   * picks the id (a test about how ids compare); a random one otherwise.
   */
  member(
    profile?: Partial<ProfileFields>,
    preferences?: Partial<PreferenceFields>,
    userId?: string,
  ): Promise<TestMember>;
  /** Delivers a whole new profile (the previous one with `changes`) as the next version. */
  updateProfile(userId: string, changes: Partial<ProfileFields>): Promise<EventOutcome>;
  updatePreferences(userId: string, changes: Partial<PreferenceFields>): Promise<EventOutcome>;
  /**
   * Delivers one event through the consumer, from its catalogue producer, with an aggregate
   * version when given (the aggregate and its id as the catalogue names them).
   */
  deliver<N extends EventName>(name: N, payload: EventPayloads[N], version?: number): Promise<EventOutcome>;
  /**
   * Safety's pair events as safety-service publishes them: the pair's whole state (`blockedBy`,
   * after the event) and the pair's next version, unless `version` is given (a stale or
   * reordered delivery).
   */
  block(
    blocker: TestMember,
    blocked: TestMember,
    blockedBy?: TestMember[],
    version?: number,
  ): Promise<EventOutcome>;
  unblock(
    blocker: TestMember,
    blocked: TestMember,
    blockedBy?: TestMember[],
    version?: number,
  ): Promise<EventOutcome>;
  unmatch(
    by: TestMember,
    other: TestMember,
    matchId: string,
    blockedBy?: TestMember[],
    version?: number,
  ): Promise<EventOutcome>;
  /** The profile last delivered for a member the bed made (to compare what the service answers). */
  profileOf(userId: string): ProfileFields;
  /** The ids of the member's suggestions (up to the maximum page). */
  suggestedTo(member: TestMember): Promise<string[]>;
  suggestions(member: TestMember, limit?: number): Promise<SuggestionDto[]>;
  /** The new_match pushes written to the realtime stream so far: to which rooms, with what. */
  pushes(): Promise<{ event: string; rooms: string[]; payload: Record<string, unknown> }[]>;
}

/** Every route of the matching API, for the tests that check each one refuses someone. */
export const MATCHING_ROUTES: readonly (readonly [method: string, path: () => string])[] = [
  ['GET', () => '/api/matches/suggestions'],
  ['POST', () => `/api/matches/like/${randomUUID()}`],
  ['POST', () => `/api/matches/pass/${randomUUID()}`],
  ['POST', () => '/api/matches/rewind'],
  ['GET', () => '/api/matches/my-matches'],
  ['GET', () => '/api/matches/stats'],
  ['GET', () => '/api/matches/likes-received'],
];

/**
 * The start of the pool's walk in tests: production draws one per request (the only chance in
 * a suggestions request), a test bed fixes it so a failing run replays the same pools.
 */
const FIXED_POOL_START = () => 0.42;

const DEFAULT_PREFERENCES: PreferenceFields = {
  minAge: 18,
  maxAge: 99,
  maxDistance: 50,
  genderPreference: [],
};

/**
 * matching-service on the service test bed (fresh database and Redis namespace), with members
 * made the way production makes them: from profile-service's events, through the real consumer.
 * The pool's start is fixed (`FIXED_POOL_START`) unless `overrides` provides `POOL_START`.
 */
export async function startMatchingTestBed(
  label: string,
  {
    env,
    overrides = [],
    database,
  }: { env?: TestEnv; overrides?: { provide: unknown; useValue: unknown }[]; database?: TestDatabaseSource } = {},
): Promise<MatchingTestBed> {
  const bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env,
    database,
    overrides: overrides.some((o) => o.provide === POOL_START)
      ? overrides
      : [{ provide: POOL_START, useValue: FIXED_POOL_START }, ...overrides],
  });
  const consumer = bed.app.get(EventConsumer);
  const profiles = new Map<string, ProfileFields>();
  const preferences = new Map<string, PreferenceFields>();
  const versions = new Map<string, number>();
  let places = 0;

  const deliver: MatchingTestBed['deliver'] = (name, payload, version) => {
    const { producer, aggregate } = EVENT_CATALOGUE[name];
    const envelope = eventEnvelope(producer, name, payload);
    const aggregateId = aggregateIdOf(name, payload);
    return consumer.apply(
      version === undefined || !aggregate || aggregateId === null
        ? envelope
        : { ...envelope, aggregateType: aggregate.type, aggregateId, aggregateVersion: version },
    );
  };
  const nextVersion = (key: string) => {
    const v = (versions.get(key) ?? 0) + 1;
    versions.set(key, v);
    return v;
  };
  /** The pair state of two members after an event, and the version it goes out with. */
  const pairState = (x: TestMember, y: TestMember, blockedBy: TestMember[], version?: number) => {
    const pairId = pairIdOf(x.userId, y.userId);
    return {
      state: {
        pairId,
        userIds: orderedPairOf(x.userId, y.userId),
        blockedBy: blockedBy.map((m) => m.userId),
      },
      version: version ?? nextVersion(`pair:${pairId}`),
    };
  };
  const updateProfile = (userId: string, changes: Partial<ProfileFields>) => {
    const profile = { ...(profiles.get(userId) as ProfileFields), ...changes };
    profiles.set(userId, profile);
    return deliver(
      'profile.updated',
      { userId, ...profile, updatedAt: new Date().toISOString() },
      nextVersion(`profile:${userId}`),
    );
  };
  const updatePreferences = (userId: string, changes: Partial<PreferenceFields>) => {
    const prefs = { ...(preferences.get(userId) ?? DEFAULT_PREFERENCES), ...changes };
    preferences.set(userId, prefs);
    const { minAge, maxAge, maxDistance, genderPreference, ...filters } = prefs;
    return deliver(
      'preferences.updated',
      { userId, minAge, maxAge, maxDistance, genderPreference, filters, updatedAt: new Date().toISOString() },
      nextVersion(`preferences:${userId}`),
    );
  };
  const suggestions = async (member: TestMember, limit = 50) => {
    const res = await bed.call<SuggestionDto[]>('GET', `/api/matches/suggestions?limit=${limit}`, {
      token: member.token,
    });
    if (res.status !== 200)
      throw new Error(`suggestions answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  return {
    ...bed,
    consumer,
    deliver,
    updateProfile,
    updatePreferences,
    suggestions,
    block(blocker, blocked, blockedBy = [blocker], version) {
      const { state, version: v } = pairState(blocker, blocked, blockedBy, version);
      const at = new Date().toISOString();
      return deliver(
        'user.blocked',
        { ...state, blockerId: blocker.userId, blockedId: blocked.userId, endedMatchId: null, blockedAt: at },
        v,
      );
    },
    unblock(blocker, blocked, blockedBy = [], version) {
      const { state, version: v } = pairState(blocker, blocked, blockedBy, version);
      const at = new Date().toISOString();
      return deliver(
        'user.unblocked',
        { ...state, blockerId: blocker.userId, blockedId: blocked.userId, unblockedAt: at },
        v,
      );
    },
    unmatch(by, other, matchId, blockedBy = [], version) {
      const { state, version: v } = pairState(by, other, blockedBy, version);
      return deliver(
        'match.ended',
        { ...state, matchId, endedBy: by.userId, reason: 'unmatch', endedAt: new Date().toISOString() },
        v,
      );
    },
    place() {
      const n = places++;
      // 3° of latitude apart (over 330 km), beyond the largest maximum distance (200 km).
      return { latitude: -60 + 3 * n, longitude: 10 + (n % 7), locationText: `Testville ${n}, Testland` };
    },
    north(from, km) {
      return {
        latitude: from.latitude + km / 111.195,
        longitude: from.longitude,
        locationText: `${from.locationText} +${km} km`,
      };
    },
    async member(profile = {}, prefs = {}, userId = randomUUID()) {
      const photoId = randomUUID();
      profiles.set(userId, {
        name: `Member ${userId.slice(0, 4)}`,
        age: 30,
        gender: 'female',
        lookingFor: 'relationship',
        interests: ['Travel', 'Music'],
        height: 170,
        education: "Bachelor's Degree",
        latitude: null,
        longitude: null,
        locationText: null,
        hasPhoto: true,
        profilePicture: `/api/photos/files/${photoId}/large.webp`,
        isVerified: true,
        onboardingCompleted: true,
        smoking: 'never',
        drinking: 'socially',
        exercise: 'sometimes',
        pets: 'dog',
        bio: 'Hello there',
        occupation: 'Engineer',
        photos: [{ id: photoId, url: `/api/photos/files/${photoId}/large.webp` }],
        ...profile,
      });
      await updateProfile(userId, {});
      await updatePreferences(userId, prefs);
      const { token } = await bed.signIn(userId);
      return { userId, token };
    },
    profileOf(userId) {
      const profile = profiles.get(userId);
      if (!profile) throw new Error(`the test bed made no member ${userId}`);
      return profile;
    },
    async suggestedTo(member) {
      return (await suggestions(member)).map((s) => s.user.id);
    },
    async pushes() {
      const redis = new Redis(bed.env.REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        const entries = await redis.xrange(realtimeStreamName(bed.env.KEY_PREFIX), '-', '+');
        return entries.map(([, fields]) => {
          const data = JSON.parse(fields[fields.indexOf('data') + 1]) as {
            packet: { data: [string, Record<string, unknown>] };
            opts: { rooms: string[] };
          };
          return { event: data.packet.data[0], rooms: data.opts.rooms, payload: data.packet.data[1] };
        });
      } finally {
        redis.disconnect();
      }
    },
  };
}
