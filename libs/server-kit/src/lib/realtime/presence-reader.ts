import { inSlotGroups, isClusterClient, type RedisClient } from '../redis/redis';
import { presenceInstanceKeyPrefix, presenceUserKey } from './realtime.keys';

/**
 * One round trip for any number of members: for each member's presence hash, whether one of its
 * sockets belongs to a gateway instance whose liveness key still exists. Read-only. One server only:
 * it names the liveness keys inside the script, which a cluster refuses (they are in other slots).
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

/** On a cluster, step one: each member's hash's instances (KEYS the hashes of one slot). */
const INSTANCES_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('HVALS', key) end
return out
`;

type PresenceRedis = RedisClient & {
  matePresenceOnline(keyCount: number, ...args: string[]): Promise<number[]>;
  matePresenceInstances(keyCount: number, ...keys: string[]): Promise<string[][]>;
};

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
  private readonly cluster: boolean;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
  ) {
    if (!('matePresenceOnline' in redis)) redis.defineCommand('matePresenceOnline', { lua: ONLINE_SCRIPT });
    if (!('matePresenceInstances' in redis)) redis.defineCommand('matePresenceInstances', { lua: INSTANCES_SCRIPT });
    this.redis = redis as PresenceRedis;
    this.cluster = isClusterClient(redis);
    this.instancePrefix = presenceInstanceKeyPrefix(prefix, this.cluster);
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
      const answers = this.cluster ? await this.onlineOnCluster(keys) : await this.redis.matePresenceOnline(keys.length, ...keys, this.instancePrefix);
      answers.forEach((answer, i) => {
        if (answer === 1) online.add(chunk[i] as string);
      });
    }
    return online;
  }

  /**
   * The script's answer on a cluster, in two steps: the members' hashes (one call per slot, sent
   * together), then the liveness of every instance they name (one EXISTS per instance, all in one
   * slot: one pipeline). Read-only, so two steps change nothing but a gateway dying in between.
   */
  private async onlineOnCluster(keys: string[]): Promise<number[]> {
    const instancesOf = await inSlotGroups(this.redis, keys, (key) => key, (group) =>
      this.redis.matePresenceInstances(group.length, ...group),
    );
    const instances = [...new Set(instancesOf.flat())];
    if (instances.length === 0) return keys.map(() => 0);
    const pipeline = this.redis.pipeline();
    for (const instance of instances) pipeline.exists(`${this.instancePrefix}${instance}`);
    const results = (await pipeline.exec()) ?? [];
    const live = new Set(
      instances.filter((_, i) => {
        const [err, exists] = results[i] ?? [new Error('no answer')];
        if (err) throw err;
        return exists === 1;
      }),
    );
    return instancesOf.map((of) => (of.some((instance) => live.has(instance)) ? 1 : 0));
  }
}
