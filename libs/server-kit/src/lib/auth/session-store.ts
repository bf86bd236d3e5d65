import { inSlotGroups, isClusterClient, memberTag, type RedisClient } from '../redis/redis';
import { ROLE_MEMBER, SESSION_IDLE_TTL, type Role } from '@mate/contracts';

/**
 * Session liveness, shared by auth-service (which creates and ends sessions) and every guard
 * (which checks and slides them). A session is a Redis hash that expires after 7 days without a
 * request; deleting it makes its token fail on the very next request everywhere.
 */
const TOUCH_FUNCTION = `
local function touch(key, activityKey, userId, ttlMs, now, maxLen)
  local f = redis.call('HMGET', key, 'userId', 'lastActivity', 'role', 'verified', 'activityDue')
  if not f[1] or f[1] ~= userId then return false end
  redis.call('PEXPIRE', key, ttlMs)
  local last = tonumber(f[2])
  local at = tonumber(now)
  local due = f[5]
  if last and at and math.floor(last / 86400000) < math.floor(at / 86400000) then
    if activityKey then
      redis.call('XADD', activityKey, 'MAXLEN', '~', maxLen, '*', 'userId', f[1], 'at', now)
    else
      redis.call('HSET', key, 'activityDue', now)
      due = now
    end
  end
  redis.call('HSET', key, 'lastActivity', now)
  if due and not activityKey then return {f[3] or '', f[4] or '', due} end
  return {f[3], f[4]}
end
`;
const TOUCH_SCRIPT = `${TOUCH_FUNCTION}
return touch(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;

/**
 * On a cluster the activity stream is in another slot than the session: the touch marks the note
 * due in the session (`activityDue`) and answers it third; the store then adds it to the stream and
 * clears the mark (CLEAR_DUE_SCRIPT). KEYS[1] the session; ARGV as TOUCH_SCRIPT's.
 */
const CLUSTER_TOUCH_SCRIPT = `${TOUCH_FUNCTION}
return touch(KEYS[1], false, ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;

/** Clears a session's due activity note once it is on the stream, unless a newer one is due. */
const CLEAR_DUE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'activityDue') == ARGV[1] then redis.call('HDEL', KEYS[1], 'activityDue') end
return 0
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

/** TOUCH_MANY_SCRIPT on a cluster, for the sessions of one slot: KEYS the sessions alone (ARGV alike, user ids from ARGV[4]). */
const CLUSTER_TOUCH_MANY_SCRIPT = `${TOUCH_FUNCTION}
local out = {}
for i = 1, #KEYS do
  out[i] = touch(KEYS[i], false, ARGV[i + 3], ARGV[1], ARGV[2], ARGV[3])
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
const touchAndCountMemberScript = (stream: boolean) => `${COUNT_FUNCTION}${TOUCH_FUNCTION}
local first = ${stream ? 3 : 2}
local session = touch(KEYS[1], ${stream ? 'KEYS[2]' : 'false'}, ARGV[1], ARGV[2], ARGV[3], ARGV[4])
local counts = {}
if session and (ARGV[5] ~= '1' or session[2] == '1') then
  for i = first, #KEYS do
    local at = 6 + 2 * (i - first)
    local counted = count(KEYS[i], ARGV[at])
    counts[#counts + 1] = counted
    if counted[1] > tonumber(ARGV[at + 1]) then break end
  end
end
return {session, counts}
`;
const TOUCH_AND_COUNT_MEMBER_SCRIPT = touchAndCountMemberScript(true);
/**
 * On a cluster: KEYS[1] the session, then the member's counters (one slot: the member's hash tag);
 * the activity note as CLUSTER_TOUCH_SCRIPT's.
 */
const CLUSTER_TOUCH_AND_COUNT_MEMBER_SCRIPT = touchAndCountMemberScript(false);

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

/** A live session's fields as the touch answers them: role, verified, and on a cluster the activity note due (its `at`). */
type TouchAnswer = [role: string | null, verified: string | null, due?: string];

type CountAndTouchCommand = (
  counterKey: string,
  key: string,
  activityKey: string,
  windowSeconds: number,
  userId: string,
  ttlMs: number,
  now: number,
  maxLen: number,
) => Promise<[number, number, TouchAnswer | null]>;

type CountCommand = (counterKey: string, windowSeconds: number) => Promise<[number, number]>;

type KeysThenArgsCommand<R> = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<R>;
type TouchAndCountMemberCommand = KeysThenArgsCommand<[TouchAnswer | null, [number, number][]]>;
type CountMembersCommand = KeysThenArgsCommand<([number, number] | null)[]>;
type TouchManyCommand = KeysThenArgsCommand<(TouchAnswer | null)[]>;

type TouchCommand = (
  key: string,
  activityKey: string,
  userId: string,
  ttlMs: number,
  now: number,
  maxLen: number,
) => Promise<TouchAnswer | null>;

type ClusterTouchCommand = (key: string, userId: string, ttlMs: number, now: number, maxLen: number) => Promise<TouchAnswer | null>;
type ClearDueCommand = (key: string, at: string) => Promise<number>;

/** The touch script's answer for a live session: its role and verified fields. */
function liveSession([role, verified]: TouchAnswer): LiveSession {
  return { role: (role as Role) || ROLE_MEMBER, verified: verified === VERIFIED };
}

/** A session named with its member (on a cluster a session's key carries its member's hash tag). */
export interface SessionRef {
  sessionId: string;
  userId: string;
}

/** The scripts, defined once per connection (EVALSHA after the first call). */
interface SessionCommands {
  mateTouchSession: TouchCommand;
  mateTouchSessions: TouchManyCommand;
  mateCountAndTouchSession: CountAndTouchCommand;
  mateCountInWindow: CountCommand;
  mateTouchAndCountMember: TouchAndCountMemberCommand;
  mateCountMembers: CountMembersCommand;
  mateClusterTouchSession: ClusterTouchCommand;
  mateClusterTouchSessions: TouchManyCommand;
  mateClusterTouchAndCountMember: TouchAndCountMemberCommand;
  mateClearActivityDue: ClearDueCommand;
}

const SCRIPTS: Record<keyof SessionCommands, { lua: string; numberOfKeys?: number }> = {
  // Two keys: the session and the activity stream.
  mateTouchSession: { numberOfKeys: 2, lua: TOUCH_SCRIPT },
  // The number of keys is its first argument.
  mateTouchSessions: { lua: TOUCH_MANY_SCRIPT },
  // Three keys: the counter, the session and the activity stream.
  mateCountAndTouchSession: { numberOfKeys: 3, lua: COUNT_AND_TOUCH_SCRIPT },
  mateCountInWindow: { numberOfKeys: 1, lua: COUNT_SCRIPT },
  // The number of keys is its first argument (two, then the member's counters).
  mateTouchAndCountMember: { lua: TOUCH_AND_COUNT_MEMBER_SCRIPT },
  mateCountMembers: { lua: COUNT_MEMBERS_SCRIPT },
  mateClusterTouchSession: { numberOfKeys: 1, lua: CLUSTER_TOUCH_SCRIPT },
  mateClusterTouchSessions: { lua: CLUSTER_TOUCH_MANY_SCRIPT },
  mateClusterTouchAndCountMember: { lua: CLUSTER_TOUCH_AND_COUNT_MEMBER_SCRIPT },
  mateClearActivityDue: { numberOfKeys: 1, lua: CLEAR_DUE_SCRIPT },
};

/**
 * Session keys (ADR 0032). On one server `<prefix>:session:<sid>` and `<prefix>:user-sessions:<uid>`,
 * as ever. On a cluster both carry the member's hash tag (`<prefix>:session:{<uid>}:<sid>`), as do
 * the member's counters (MemberLimits): a member's session check, counters, session list and
 * revocations are one slot, so each stays one script or MULTI. The activity stream is one key of
 * its own slot: on a cluster the touch marks a note due in the session and the store adds it to the
 * stream in a second step (only on a session's first request of a day), at least once.
 */
export class SessionStore {
  private readonly commands: SessionCommands;
  private readonly cluster: boolean;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly idleTtlMs = SESSION_IDLE_TTL,
  ) {
    this.cluster = isClusterClient(redis);
    const defined = redis as unknown as Partial<SessionCommands>;
    for (const [name, script] of Object.entries(SCRIPTS) as [keyof SessionCommands, (typeof SCRIPTS)[keyof SessionCommands]][]) {
      if (!defined[name]) redis.defineCommand(name, script);
    }
    const bound = {} as Record<string, unknown>;
    for (const name of Object.keys(SCRIPTS)) bound[name] = (defined[name as keyof SessionCommands] as (...a: unknown[]) => unknown).bind(redis);
    this.commands = bound as unknown as SessionCommands;
  }

  /** A session's key: `<prefix>:session:<sid>`, on a cluster `<prefix>:session:{<uid>}:<sid>`. */
  sessionKey(sessionId: string, userId: string): string {
    return this.cluster ? `${this.prefix}:session:${memberTag(userId, true)}:${sessionId}` : `${this.prefix}:session:${sessionId}`;
  }
  /** The set of a member's session ids: `<prefix>:user-sessions:<uid>` (the uid hash-tagged on a cluster). */
  userSessionsKey(userId: string): string {
    return `${this.prefix}:user-sessions:${memberTag(userId, this.cluster)}`;
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
    const key = this.sessionKey(sessionId, userId);
    const fields: Record<string, string> = { userId, role, verified: verified ? VERIFIED : UNVERIFIED, lastActivity: String(now) };
    if (this.cluster) {
      // The sign-in's note is due in the session until it is on the stream (another slot).
      await this.redis
        .multi()
        .hset(key, { ...fields, activityDue: String(now) })
        .pexpire(key, this.idleTtlMs)
        .sadd(this.userSessionsKey(userId), sessionId)
        .exec();
      await this.noteActivity([{ key, userId, at: String(now) }]);
      return;
    }
    await this.redis
      .multi()
      .hset(key, fields)
      .pexpire(key, this.idleTtlMs)
      .sadd(this.userSessionsKey(userId), sessionId)
      // A sign-in is activity: noted for auth-service (which keeps one fact per member and day).
      .xadd(this.activityKey, 'MAXLEN', '~', MEMBER_ACTIVITY_STREAM_MAXLEN, '*', 'userId', userId, 'at', String(now))
      .exec();
  }

  /**
   * Cluster only: adds the due notes to the activity stream, then clears them in their sessions.
   * A failure between the two leaves a note due, added again by the session's next touch: the
   * consumer records one row per member and day, so a note added twice counts once.
   */
  private async noteActivity(due: { key: string; userId: string; at: string }[]): Promise<void> {
    if (due.length === 0) return;
    await Promise.all(
      due.map(async ({ key, userId, at }) => {
        await this.redis.xadd(this.activityKey, 'MAXLEN', '~', MEMBER_ACTIVITY_STREAM_MAXLEN, '*', 'userId', userId, 'at', at);
        await this.commands.mateClearActivityDue(key, at);
      }),
    );
  }

  /** The answer of a touch on a cluster: its due note is added to the stream before the answer. */
  private async settle(answers: { key: string; userId: string; answer: TouchAnswer | null }[]): Promise<void> {
    const due = answers.filter((a) => a.answer?.[2]).map((a) => ({ key: a.key, userId: a.userId, at: a.answer?.[2] as string }));
    await this.noteActivity(due);
  }

  /**
   * Checks the session is alive and belongs to the user, and slides its expiry. The session's
   * first request of a new UTC day also notes the member's activity on the activity stream (one
   * comparison in the script on every other request).
   */
  async touch(sessionId: string, userId: string, now = Date.now()): Promise<LiveSession | null> {
    const key = this.sessionKey(sessionId, userId);
    if (this.cluster) {
      const answer = await this.commands.mateClusterTouchSession(key, userId, this.idleTtlMs, now, MEMBER_ACTIVITY_STREAM_MAXLEN);
      await this.settle([{ key, userId, answer }]);
      return answer ? liveSession(answer) : null;
    }
    const fields = await this.commands.mateTouchSession(key, this.activityKey, userId, this.idleTtlMs, now, MEMBER_ACTIVITY_STREAM_MAXLEN);
    return fields ? liveSession(fields) : null;
  }

  /**
   * `touch` after counting one on `counter` (a fixed window), in one Redis call: the gateway's
   * per-address rate limit and its session check cost one round trip, one command to write and one
   * answer to read, instead of two of each. The session is checked and slid whatever the count.
   * On a cluster the address's counter and the session are in different slots: two commands sent
   * together (one round trip's wait), not one script; nothing needed them atomic.
   */
  async touchCounting(
    sessionId: string,
    userId: string,
    counter: WindowCounter,
    now = Date.now(),
  ): Promise<{ count: WindowCount; session: LiveSession | null }> {
    if (this.cluster) {
      const [count, session] = await Promise.all([this.countInWindow(counter), this.touch(sessionId, userId, now)]);
      return { count, session };
    }
    const [consumed, msBeforeNext, fields] = await this.commands.mateCountAndTouchSession(
      counter.key,
      this.sessionKey(sessionId, userId),
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
   * On a cluster the counters carry the member's hash tag (MemberLimits), so it stays one script.
   */
  async touchCountingMember(
    sessionId: string,
    userId: string,
    counters: readonly AllowanceCounter[],
    { verifiedOnly }: { verifiedOnly: boolean },
    now = Date.now(),
  ): Promise<{ session: LiveSession | null; counts: WindowCount[] }> {
    const key = this.sessionKey(sessionId, userId);
    const args = [
      userId,
      this.idleTtlMs,
      now,
      MEMBER_ACTIVITY_STREAM_MAXLEN,
      verifiedOnly ? '1' : '0',
      ...counters.flatMap((c) => [c.windowSeconds, c.points]),
    ];
    const [fields, counts] = this.cluster
      ? await this.commands.mateClusterTouchAndCountMember(counters.length + 1, key, ...counters.map((c) => c.key), ...args)
      : await this.commands.mateTouchAndCountMember(counters.length + 2, key, this.activityKey, ...counters.map((c) => c.key), ...args);
    if (this.cluster) await this.settle([{ key, userId, answer: fields }]);
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
   * On a cluster, one call per slot (a member's counters share theirs), sent together.
   */
  async countMembers(members: readonly (readonly AllowanceCounter[])[]): Promise<WindowCount[][]> {
    const counters = members.flatMap((of, member) => of.map((counter) => ({ counter, member })));
    if (counters.length === 0) return members.map(() => []);
    const answers = await inSlotGroups(this.redis, counters, ({ counter }) => counter.key, (group) =>
      this.commands.mateCountMembers(
        group.length,
        ...group.map(({ counter }) => counter.key),
        ...group.flatMap(({ counter, member }) => [counter.windowSeconds, counter.points, member]),
      ),
    );
    const out: WindowCount[][] = members.map(() => []);
    answers.forEach((answer, i) => {
      if (answer) out[counters[i].member].push({ consumed: answer[0], msBeforeNext: answer[1] });
    });
    return out;
  }

  /** The count of `touchCounting` without a session: for the gateway's requests that need none. */
  async countInWindow(counter: WindowCounter): Promise<WindowCount> {
    const [consumed, msBeforeNext] = await this.commands.mateCountInWindow(counter.key, counter.windowSeconds);
    return { consumed, msBeforeNext };
  }

  /**
   * `touch` for many sessions in one Redis round trip (one script call): the gateway's batched
   * socket events check every sender's session at once. Answers in order; a Redis error fails the
   * whole call, as it fails `touch`. On a cluster, one call per slot, sent together.
   */
  async touchMany(sessions: { sessionId: string; userId: string }[], now = Date.now()): Promise<(LiveSession | null)[]> {
    if (sessions.length === 0) return [];
    const keyed = sessions.map((s) => ({ ...s, key: this.sessionKey(s.sessionId, s.userId) }));
    const results = await inSlotGroups(this.redis, keyed, (s) => s.key, (group) =>
      this.cluster
        ? this.commands.mateClusterTouchSessions(
            group.length,
            ...group.map((s) => s.key),
            this.idleTtlMs,
            now,
            MEMBER_ACTIVITY_STREAM_MAXLEN,
            ...group.map((s) => s.userId),
          )
        : this.commands.mateTouchSessions(
            group.length + 1,
            this.activityKey,
            ...group.map((s) => s.key),
            this.idleTtlMs,
            now,
            MEMBER_ACTIVITY_STREAM_MAXLEN,
            ...group.map((s) => s.userId),
          ),
    );
    if (results.length !== sessions.length) throw new Error('session check: Redis answered a partial batch');
    if (this.cluster) await this.settle(keyed.map((s, i) => ({ key: s.key, userId: s.userId, answer: results[i] })));
    return results.map((fields) => (fields ? liveSession(fields) : null));
  }

  /**
   * Whether the session is alive and the user's, without touching it: no sliding of its expiry,
   * no activity note. For a check on someone's behalf that is not their own request (the admin
   * queue dashboard checks the admin's session on each of its polls).
   */
  async peek(sessionId: string, userId: string): Promise<LiveSession | null> {
    const [owner, role, verified] = await this.redis.hmget(this.sessionKey(sessionId, userId), 'userId', 'role', 'verified');
    if (!owner || owner !== userId) return null;
    return { role: (role as Role) || ROLE_MEMBER, verified: verified === VERIFIED };
  }

  /** The last activity (epoch ms) of each session that is still live, by session id. */
  async lastActivity(sessions: readonly SessionRef[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (sessions.length === 0) return out;
    const values = await inSlotGroups(this.redis, sessions, (s) => this.sessionKey(s.sessionId, s.userId), async (group) => {
      const pipeline = this.redis.pipeline();
      for (const s of group) pipeline.hget(this.sessionKey(s.sessionId, s.userId), 'lastActivity');
      const results = (await pipeline.exec()) ?? [];
      return results.map(([err, value]) => {
        if (err) throw err;
        return value as string | null;
      });
    });
    values.forEach((value, i) => {
      if (value) out.set(sessions[i].sessionId, Number(value));
    });
    return out;
  }

  async revoke(sessionId: string, userId: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.sessionKey(sessionId, userId))
      .srem(this.userSessionsKey(userId), sessionId)
      .publish(sessionRevokedChannel(this.prefix), sessionId)
      .exec();
  }

  /** Ends every session of a user (suspension, deletion, password reset), optionally keeping one. */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<string[]> {
    const ids = await this.redis.smembers(this.userSessionsKey(userId));
    const ended = ids.filter((id) => id !== exceptSessionId);
    if (ended.length === 0) return [];
    const multi = this.redis.multi();
    for (const id of ended) {
      multi.del(this.sessionKey(id, userId)).srem(this.userSessionsKey(userId), id).publish(sessionRevokedChannel(this.prefix), id);
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
    const ids = await this.redis.smembers(this.userSessionsKey(userId));
    if (ids.length === 0) return;
    await this.redis.eval(SET_IF_LIVE_SCRIPT, ids.length, ...ids.map((id) => this.sessionKey(id, userId)), field, value);
  }
}
