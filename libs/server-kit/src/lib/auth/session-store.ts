import type Redis from 'ioredis';
import { ROLE_MEMBER, SESSION_IDLE_TTL, type Role } from '@mate/contracts';

/**
 * Session liveness, shared by auth-service (which creates and ends sessions) and every guard
 * (which checks and slides them). A session is a Redis hash that expires after 7 days without a
 * request; deleting it makes its token fail on the very next request everywhere.
 */
const TOUCH_SCRIPT = `
local uid = redis.call('HGET', KEYS[1], 'userId')
if not uid or uid ~= ARGV[1] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[1], 'lastActivity', ARGV[3])
return redis.call('HGET', KEYS[1], 'role')
`;

export interface LiveSession {
  role: Role;
}

/**
 * The pub/sub channel on which ended session ids are announced, so every gateway replica closes
 * their sockets at once (a socket is not a request: nothing else would notice the revocation).
 */
export const sessionRevokedChannel = (prefix: string) => `${prefix}:sessions:revoked`;

type TouchCommand = (key: string, userId: string, ttlMs: number, now: number) => Promise<string | null>;

export class SessionStore {
  /** The touch script, bound once: it runs on every authenticated request. */
  private readonly touchCommand: TouchCommand;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly idleTtlMs = SESSION_IDLE_TTL,
  ) {
    // Sent once and then called by its SHA (EVALSHA).
    const commands = redis as unknown as { mateTouchSession?: TouchCommand };
    if (!commands.mateTouchSession) {
      redis.defineCommand('mateTouchSession', { numberOfKeys: 1, lua: TOUCH_SCRIPT });
    }
    this.touchCommand = (commands.mateTouchSession as TouchCommand).bind(redis);
  }

  private key(sessionId: string) {
    return `${this.prefix}:session:${sessionId}`;
  }
  private userKey(userId: string) {
    return `${this.prefix}:user-sessions:${userId}`;
  }

  async create(sessionId: string, userId: string, role: Role, now = Date.now()): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(sessionId), { userId, role, lastActivity: String(now) })
      .pexpire(this.key(sessionId), this.idleTtlMs)
      .sadd(this.userKey(userId), sessionId)
      .exec();
  }

  /** Checks the session is alive and belongs to the user, and slides its expiry. */
  async touch(sessionId: string, userId: string, now = Date.now()): Promise<LiveSession | null> {
    const role = await this.touchCommand(this.key(sessionId), userId, this.idleTtlMs, now);
    if (role === null || role === undefined) return null;
    return { role: (role as Role) || ROLE_MEMBER };
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
    const ids = await this.redis.smembers(this.userKey(userId));
    const multi = this.redis.multi();
    for (const id of ids) {
      // HSET on an expired key would resurrect it; only update sessions that still exist.
      multi.eval(
        "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], 'role', ARGV[1]) end return 0",
        1,
        this.key(id),
        role,
      );
    }
    await multi.exec();
  }
}
