import type Redis from 'ioredis';
import { presenceInstanceKeyPrefix, presenceUserKey } from './realtime.keys';

/**
 * One round trip for any number of members: for each member's presence hash, whether one of its
 * sockets belongs to a gateway instance whose liveness key still exists. Read-only.
 */
const ONLINE_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local online = 0
  local seen = {}
  for _, instance in ipairs(redis.call('HVALS', key)) do
    if not seen[instance] then
      seen[instance] = true
      if redis.call('EXISTS', ARGV[1] .. instance) == 1 then
        online = 1
        break
      end
    end
  end
  out[i] = online
end
return out
`;

/** Most members looked up in one script call (a long list is split, so Redis is never held long). */
const CHUNK = 500;

type PresenceRedis = Redis & { matePresenceOnline(keyCount: number, ...args: string[]): Promise<number[]> };

/**
 * Whether members have a connected socket on any live gateway instance (the gateway records them,
 * see docs/adr/0005-realtime.md, "Presence"). A socket of a gateway that died without cleaning up
 * stops counting once that gateway's heartbeat key expires (PRESENCE_TTL_MS).
 *
 * Fail safe: when Redis is unreachable the promise rejects; the caller decides what that means
 * (ending a call, sending a push) instead of this guessing "offline" or "online".
 */
export class PresenceReader {
  private readonly redis: PresenceRedis;
  private readonly instancePrefix: string;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    if (!('matePresenceOnline' in redis)) redis.defineCommand('matePresenceOnline', { lua: ONLINE_SCRIPT });
    this.redis = redis as PresenceRedis;
    this.instancePrefix = presenceInstanceKeyPrefix(prefix);
  }

  async isOnline(userId: string): Promise<boolean> {
    return (await this.onlineOf([userId])).has(userId);
  }

  /** The given members who are online. */
  async onlineOf(userIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(userIds)];
    const online = new Set<string>();
    for (let start = 0; start < unique.length; start += CHUNK) {
      const chunk = unique.slice(start, start + CHUNK);
      const keys = chunk.map((id) => presenceUserKey(this.prefix, id));
      const answers = await this.redis.matePresenceOnline(keys.length, ...keys, this.instancePrefix);
      answers.forEach((answer, i) => {
        if (answer === 1) online.add(chunk[i] as string);
      });
    }
    return online;
  }
}
