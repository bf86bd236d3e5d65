import type Redis from 'ioredis';
import { ROLE_MEMBER, SESSION_IDLE_TTL, type Role } from '@mate/contracts';

/**
 * Session liveness, shared by auth-service (which creates and ends sessions) and every guard
 * (which checks and slides them). A session is a Redis hash that expires after 7 days without a
 * request; deleting it makes its token fail on the very next request everywhere.
 */
const TOUCH_FUNCTION = `
local function touch(key, activityKey, userId, ttlMs, now, maxLen)
  local f = redis.call('HMGET', key, 'userId', 'lastActivity', 'role', 'verified')
  if not f[1] or f[1] ~= userId then return false end
  redis.call('PEXPIRE', key, ttlMs)
  local last = tonumber(f[2])
  local at = tonumber(now)
  if last and at and math.floor(last / 86400000) < math.floor(at / 86400000) then
    redis.call('XADD', activityKey, 'MAXLEN', '~', maxLen, '*', 'userId', f[1], 'at', now)
  end
  redis.call('HSET', key, 'lastActivity', now)
  return {f[3], f[4]}
end
`;
const TOUCH_SCRIPT = `${TOUCH_FUNCTION}
return touch(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;

/**
 * The touch of many sessions in one call (`touchMany`): KEYS[1] the activity stream, then the
 * session keys; ARGV the idle ttl, now and the stream's length, then the user ids in the sessions'
 * order. Answers each touch's answer in order (nil for a session that is not live).
 */
const TOUCH_MANY_SCRIPT = `${TOUCH_FUNCTION}
local out = {}
for i = 2, #KEYS do
  out[i - 1] = touch(KEYS[i], KEYS[1], ARGV[i + 2], ARGV[1], ARGV[2], ARGV[3])
end
return out
`;

/**
 * One count on a fixed-window counter (rate-limiter-flexible's RateLimiterRedis script, so a key
 * holds the same value whichever counted it): `count(key, windowSeconds)` answers {consumed, ttlMs}.
 */
const COUNT_FUNCTION = `
local function count(key, windowSeconds)
  redis.call('SET', key, 0, 'EX', windowSeconds, 'NX')
  local consumed = redis.call('INCRBY', key, 1)
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then
    redis.call('EXPIRE', key, windowSeconds)
    ttl = 1000 * windowSeconds
  end
  return {consumed, ttl}
end
`;

/** A count on a fixed-window counter alone (KEYS[1], ARGV[1] seconds): `SessionStore.countInWindow`. */
const COUNT_SCRIPT = `${COUNT_FUNCTION}
return count(KEYS[1], ARGV[1])
`;

/**
 * The count and then the touch: the gateway's per-address count and session check in one Redis
 * call. Answers {consumed, ttlMs, touch's answer}.
 */
const COUNT_AND_TOUCH_SCRIPT = `${COUNT_FUNCTION}${TOUCH_FUNCTION}
local counted = count(KEYS[1], ARGV[1])
return {counted[1], counted[2], touch(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4], ARGV[5])}
`;

/**
 * The touch, then, for a live session (and a verified one when ARGV[5] is '1'), one count on each
 * counter of KEYS[3..] in order (ARGV: window seconds and allowance per counter, after the touch's
 * four), stopping after the first one past its allowance: a service's guard checks the session and
 * counts the member's limits of the route in one call (`touchCountingMember`). A session that is
 * refused counts nothing, as when the limits were counted after the guard. Answers
 * {touch's answer, {consumed, ttlMs} per counter counted}.
 */
const TOUCH_AND_COUNT_MEMBER_SCRIPT = `${COUNT_FUNCTION}${TOUCH_FUNCTION}
local session = touch(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
local counts = {}
if session and (ARGV[5] ~= '1' or session[2] == '1') then
  for i = 3, #KEYS do
    local at = 6 + 2 * (i - 3)
    local counted = count(KEYS[i], ARGV[at])
    counts[#counts + 1] = counted
    if counted[1] > tonumber(ARGV[at + 1]) then break end
  end
end
return {session, counts}
`;

/**
 * The members' counters alone (`countMembers`): KEYS the counters of every member in turn, ARGV per
 * key its window seconds, its allowance and its member's place; each member's counters counted in
 * order, stopping after the first past its allowance, as TOUCH_AND_COUNT_MEMBER does for one.
 * Answers {consumed, ttlMs} per key, false for a key not counted.
 */
const COUNT_MEMBERS_SCRIPT = `${COUNT_FUNCTION}
local out = {}
local stopped = {}
for i, key in ipairs(KEYS) do
  local at = 3 * (i - 1)
  local member = ARGV[at + 3]
  if stopped[member] then
    out[i] = false
  else
    local counted = count(key, ARGV[at + 1])
    out[i] = counted
    if counted[1] > tonumber(ARGV[at + 2]) then stopped[member] = true end
  end
end
return out
`;

/**
 * The stream of member activity notes (issue 13): `{ userId, at }` (at: epoch ms) on a session's
 * creation (sign-in) and on its first request of a new UTC day. auth-service turns each into the
 * once-a-day fact `member.active` and the account's last activity; everyone else only writes it.
 */
export const memberActivityStreamKey = (prefix: string) => `${prefix}:member-activity`;
/** The stream is capped (approximately) to this many notes: a day's actives, and room to spare. */
export const MEMBER_ACTIVITY_STREAM_MAXLEN = 100_000;

/** Sets one field on each named session that still exists (HSET on an expired key would resurrect it). */
const SET_IF_LIVE_SCRIPT = `
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('HSET', key, ARGV[1], ARGV[2]) end
end
return 0
`;

/** The `verified` field: '1' once the account's email is verified. A hash without it is unverified. */
const VERIFIED = '1';
const UNVERIFIED = '0';

export interface LiveSession {
  role: Role;
  /** The account's email address is verified; the guard refuses other sessions on most routes. */
  verified: boolean;
}

/**
 * The pub/sub channel on which ended session ids are announced, so every gateway replica closes
 * their sockets at once (a socket is not a request: nothing else would notice the revocation).
 */
export const sessionRevokedChannel = (prefix: string) => `${prefix}:sessions:revoked`;

/** A fixed-window counter counted in the same call as a touch (`touchCounting`). */
export interface WindowCounter {
  /** The counter's Redis key (created with the window's expiry on its first count). */
  key: string;
  windowSeconds: number;
}

/** A member's counter with its allowance (`touchCountingMember`): counting stops after the first one past it. */
export interface AllowanceCounter extends WindowCounter {
  /** Counts allowed in a window. */
  points: number;
}

/** The counter after this count: its value in the current window and the ms until the window ends. */
export interface WindowCount {
  consumed: number;
  msBeforeNext: number;
}

type CountAndTouchCommand = (
  counterKey: string,
  key: string,
  activityKey: string,
  windowSeconds: number,
  userId: string,
  ttlMs: number,
  now: number,
  maxLen: number,
) => Promise<[number, number, [string | null, string | null] | null]>;

type CountCommand = (counterKey: string, windowSeconds: number) => Promise<[number, number]>;

type TouchAndCountMemberCommand = (
  numberOfKeys: number,
  ...keysThenArgs: (string | number)[]
) => Promise<[[string | null, string | null] | null, [number, number][]]>;

type CountMembersCommand = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<([number, number] | null)[]>;

type TouchManyCommand = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<([string | null, string | null] | null)[]>;

type TouchCommand = (
  key: string,
  activityKey: string,
  userId: string,
  ttlMs: number,
  now: number,
  maxLen: number,
) => Promise<[string | null, string | null] | null>;

/** The touch script's answer for a live session: its role and verified fields. */
function liveSession([role, verified]: [string | null, string | null]): LiveSession {
  return { role: (role as Role) || ROLE_MEMBER, verified: verified === VERIFIED };
}

export class SessionStore {
  /** The touch script, bound once: it runs on every authenticated request. */
  private readonly touchCommand: TouchCommand;
  /** The touch of a batch of sessions, one command (the gateway's batched socket events). */
  private readonly touchManyCommand: TouchManyCommand;
  /** The gateway's count-and-touch script, bound once: it runs on every proxied authenticated request. */
  private readonly countAndTouchCommand: CountAndTouchCommand;
  private readonly countCommand: CountCommand;
  /** A service guard's session check with the member's counters of the route (`touchCountingMember`). */
  private readonly touchAndCountMemberCommand: TouchAndCountMemberCommand;
  /** Socket events' per-member counters, a delivery's in one call (`countMembers`). */
  private readonly countMembersCommand: CountMembersCommand;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly idleTtlMs = SESSION_IDLE_TTL,
  ) {
    // Sent once and then called by its SHA (EVALSHA). Two keys: the session and the activity stream.
    const commands = redis as unknown as {
      mateTouchSession?: TouchCommand;
      mateTouchSessions?: TouchManyCommand;
      mateCountAndTouchSession?: CountAndTouchCommand;
      mateCountInWindow?: CountCommand;
      mateTouchAndCountMember?: TouchAndCountMemberCommand;
      mateCountMembers?: CountMembersCommand;
    };
    if (!commands.mateTouchSession) {
      redis.defineCommand('mateTouchSession', { numberOfKeys: 2, lua: TOUCH_SCRIPT });
    }
    // The number of keys is its first argument.
    if (!commands.mateTouchSessions) redis.defineCommand('mateTouchSessions', { lua: TOUCH_MANY_SCRIPT });
    // Three keys: the counter, the session and the activity stream.
    if (!commands.mateCountAndTouchSession) {
      redis.defineCommand('mateCountAndTouchSession', { numberOfKeys: 3, lua: COUNT_AND_TOUCH_SCRIPT });
    }
    if (!commands.mateCountInWindow) {
      redis.defineCommand('mateCountInWindow', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    }
    // The number of keys is its first argument (two, then the member's counters).
    if (!commands.mateTouchAndCountMember) {
      redis.defineCommand('mateTouchAndCountMember', { lua: TOUCH_AND_COUNT_MEMBER_SCRIPT });
    }
    // The number of keys is its first argument.
    if (!commands.mateCountMembers) redis.defineCommand('mateCountMembers', { lua: COUNT_MEMBERS_SCRIPT });
    this.countMembersCommand = (commands.mateCountMembers as CountMembersCommand).bind(redis);
    this.touchCommand = (commands.mateTouchSession as TouchCommand).bind(redis);
    this.touchAndCountMemberCommand = (commands.mateTouchAndCountMember as TouchAndCountMemberCommand).bind(redis);
    this.touchManyCommand = (commands.mateTouchSessions as TouchManyCommand).bind(redis);
    this.countCommand = (commands.mateCountInWindow as CountCommand).bind(redis);
    this.countAndTouchCommand = (commands.mateCountAndTouchSession as CountAndTouchCommand).bind(redis);
  }

  private key(sessionId: string) {
    return `${this.prefix}:session:${sessionId}`;
  }
  private userKey(userId: string) {
    return `${this.prefix}:user-sessions:${userId}`;
  }
  private get activityKey() {
    return memberActivityStreamKey(this.prefix);
  }

  async create(
    sessionId: string,
    userId: string,
    role: Role,
    verified: boolean,
    now = Date.now(),
  ): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(sessionId), {
        userId,
        role,
        verified: verified ? VERIFIED : UNVERIFIED,
        lastActivity: String(now),
      })
      .pexpire(this.key(sessionId), this.idleTtlMs)
      .sadd(this.userKey(userId), sessionId)
      // A sign-in is activity: noted for auth-service (which keeps one fact per member and day).
      .xadd(
        this.activityKey,
        'MAXLEN',
        '~',
        MEMBER_ACTIVITY_STREAM_MAXLEN,
        '*',
        'userId',
        userId,
        'at',
        String(now),
      )
      .exec();
  }

  /**
   * Checks the session is alive and belongs to the user, and slides its expiry. The session's
   * first request of a new UTC day also notes the member's activity on the activity stream (one
   * comparison in the script on every other request).
   */
  async touch(sessionId: string, userId: string, now = Date.now()): Promise<LiveSession | null> {
    const fields = await this.touchCommand(
      this.key(sessionId),
      this.activityKey,
      userId,
      this.idleTtlMs,
      now,
      MEMBER_ACTIVITY_STREAM_MAXLEN,
    );
    return fields ? liveSession(fields) : null;
  }

  /**
   * `touch` after counting one on `counter` (a fixed window), in one Redis call: the gateway's
   * per-address rate limit and its session check cost one round trip, one command to write and one
   * answer to read, instead of two of each. The session is checked and slid whatever the count.
   */
  async touchCounting(
    sessionId: string,
    userId: string,
    counter: WindowCounter,
    now = Date.now(),
  ): Promise<{ count: WindowCount; session: LiveSession | null }> {
    const [consumed, msBeforeNext, fields] = await this.countAndTouchCommand(
      counter.key,
      this.key(sessionId),
      this.activityKey,
      counter.windowSeconds,
      userId,
      this.idleTtlMs,
      now,
      MEMBER_ACTIVITY_STREAM_MAXLEN,
    );
    return { count: { consumed, msBeforeNext }, session: fields ? liveSession(fields) : null };
  }

  /**
   * `touch`, then for a live session one count on each of the member's `counters` in order,
   * stopping after the first past its allowance, in one Redis call: a service's guard checks the
   * session and counts the route's per-member limits (a minute's and a day's) in one round trip
   * instead of one for the session and one for the limits. A session that is not live, or not
   * verified when `verifiedOnly`, counts nothing (its request is refused before the limits).
   */
  async touchCountingMember(
    sessionId: string,
    userId: string,
    counters: readonly AllowanceCounter[],
    { verifiedOnly }: { verifiedOnly: boolean },
    now = Date.now(),
  ): Promise<{ session: LiveSession | null; counts: WindowCount[] }> {
    const [fields, counts] = await this.touchAndCountMemberCommand(
      counters.length + 2,
      this.key(sessionId),
      this.activityKey,
      ...counters.map((c) => c.key),
      userId,
      this.idleTtlMs,
      now,
      MEMBER_ACTIVITY_STREAM_MAXLEN,
      verifiedOnly ? '1' : '0',
      ...counters.flatMap((c) => [c.windowSeconds, c.points]),
    );
    return {
      session: fields ? liveSession(fields) : null,
      counts: counts.map(([consumed, msBeforeNext]) => ({ consumed, msBeforeNext })),
    };
  }

  /**
   * The counts of `touchCountingMember` without the touch, for many members in one Redis call:
   * the socket events of a delivery, whose senders' sessions were checked before their payloads
   * were read (`SocketEventRegistry`). Each member's `counters` counted in order, stopping after
   * the first past its allowance; answers each member's counts in order (none for no counters).
   */
  async countMembers(members: readonly (readonly AllowanceCounter[])[]): Promise<WindowCount[][]> {
    const counters = members.flatMap((of, member) => of.map((counter) => ({ counter, member })));
    if (counters.length === 0) return members.map(() => []);
    const answers = await this.countMembersCommand(
      counters.length,
      ...counters.map(({ counter }) => counter.key),
      ...counters.flatMap(({ counter, member }) => [counter.windowSeconds, counter.points, member]),
    );
    const out: WindowCount[][] = members.map(() => []);
    answers.forEach((answer, i) => {
      if (answer) out[counters[i].member].push({ consumed: answer[0], msBeforeNext: answer[1] });
    });
    return out;
  }

  /** The count of `touchCounting` without a session: for the gateway's requests that need none. */
  async countInWindow(counter: WindowCounter): Promise<WindowCount> {
    const [consumed, msBeforeNext] = await this.countCommand(counter.key, counter.windowSeconds);
    return { consumed, msBeforeNext };
  }

  /**
   * `touch` for many sessions in one Redis round trip (a pipeline of the same script): the
   * gateway's batched socket events check every sender's session at once. Answers in order; a
   * Redis error fails the whole call, as it fails `touch`.
   */
  async touchMany(sessions: { sessionId: string; userId: string }[], now = Date.now()): Promise<(LiveSession | null)[]> {
    if (sessions.length === 0) return [];
    // One command for the batch: one script call instead of one per session (each a command to
    // build, write and answer).
    const results = await this.touchManyCommand(
      sessions.length + 1,
      this.activityKey,
      ...sessions.map((s) => this.key(s.sessionId)),
      this.idleTtlMs,
      now,
      MEMBER_ACTIVITY_STREAM_MAXLEN,
      ...sessions.map((s) => s.userId),
    );
    if (results.length !== sessions.length) throw new Error('session check: Redis answered a partial batch');
    return results.map((fields) => (fields ? liveSession(fields) : null));
  }

  /**
   * Whether the session is alive and the user's, without touching it: no sliding of its expiry,
   * no activity note. For a check on someone's behalf that is not their own request (the admin
   * queue dashboard checks the admin's session on each of its polls).
   */
  async peek(sessionId: string, userId: string): Promise<LiveSession | null> {
    const [owner, role, verified] = await this.redis.hmget(this.key(sessionId), 'userId', 'role', 'verified');
    if (!owner || owner !== userId) return null;
    return { role: (role as Role) || ROLE_MEMBER, verified: verified === VERIFIED };
  }

  async lastActivity(sessionIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (sessionIds.length === 0) return out;
    const pipeline = this.redis.pipeline();
    for (const id of sessionIds) pipeline.hget(this.key(id), 'lastActivity');
    const results = (await pipeline.exec()) ?? [];
    results.forEach(([, value], i) => {
      if (value) out.set(sessionIds[i], Number(value));
    });
    return out;
  }

  async revoke(sessionId: string, userId: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.key(sessionId))
      .srem(this.userKey(userId), sessionId)
      .publish(sessionRevokedChannel(this.prefix), sessionId)
      .exec();
  }

  /** Ends every session of a user (suspension, deletion, password reset), optionally keeping one. */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<string[]> {
    const ids = await this.redis.smembers(this.userKey(userId));
    const ended = ids.filter((id) => id !== exceptSessionId);
    if (ended.length === 0) return [];
    const multi = this.redis.multi();
    for (const id of ended) {
      multi.del(this.key(id)).srem(this.userKey(userId), id).publish(sessionRevokedChannel(this.prefix), id);
    }
    await multi.exec();
    return ended;
  }

  /** A role change takes effect on the user's live sessions at once. */
  async setRole(userId: string, role: Role): Promise<void> {
    await this.setOnLiveSessions(userId, 'role', role);
  }

  /** Email verification (or a change back to unverified) takes effect on the user's live sessions at once. */
  async setVerified(userId: string, verified = true): Promise<void> {
    await this.setOnLiveSessions(userId, 'verified', verified ? VERIFIED : UNVERIFIED);
  }

  private async setOnLiveSessions(userId: string, field: string, value: string): Promise<void> {
    const ids = await this.redis.smembers(this.userKey(userId));
    if (ids.length === 0) return;
    await this.redis.eval(SET_IF_LIVE_SCRIPT, ids.length, ...ids.map((id) => this.key(id)), field, value);
  }
}
