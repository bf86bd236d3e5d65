import { createHash } from 'node:crypto';
import type { Provider } from '@nestjs/common';
import { inSlotGroups, type RedisClient } from '../redis/redis';
import { pairIdOf } from '@mate/contracts';
import { SERVICE_ENV, type BaseServiceEnv } from '../config/config';
import { REDIS } from '../redis/redis';

/**
 * The pair gate (docs/adr/0024-pair-gate.md): what the producer of a pair's state has just
 * answered, kept in Redis for the services whose projections of the pair learn it through events,
 * a moment later. The producer writes it after its commit and before its answer; the consumers
 * read it on every action between the two members and take it over their projection when it is
 * newer. Durable state stays in the outbox events; the gate only covers their way there.
 *
 * The state is ordered by the pair's version (safety's aggregate version of the pair, the one
 * `match.created`'s `pairVersion` names):
 * - `closed` at v: pair event v (a block, an unmatch) ended every match made under a pair version
 *   below v;
 * - `open` at v: a match was made under pair version v (it follows pair event v, so at one version
 *   it wins over `closed`). Matching writes it with the match's id and time (`match`), so a consumer
 *   whose projection has not heard of the match yet can record it exactly as `match.created` will
 *   (docs/adr/0029-match-propagation.md).
 */
export interface PairGateState {
  version: number;
  open: boolean;
  /** With `open`: the match made under `version` (absent in an entry written without it). */
  match?: PairGateMatch;
}

/** The match an `open` entry names: its id and when it was made (never a member id: ADR 0024). */
export interface PairGateMatch {
  matchId: string;
  matchedAt: Date;
}

/** How long an entry lives: far longer than events take to reach the projections. */
export const PAIR_GATE_TTL_SECONDS = 24 * 60 * 60;

/**
 * Writes `ARGV[1]` (`<version>:closed`, `<version>:open` or `<version>:open:<match id>:<epoch ms>`)
 * unless the entry holds a newer state; refreshes the lifetime of an equal one. One script, so two
 * writers never interleave a read and a write.
 */
const WRITE_SCRIPT = `
local rank = function(v)
  if not v then return -1 end
  local sep = string.find(v, ':', 1, true)
  local n = tonumber(string.sub(v, 1, sep - 1)) * 2
  if string.sub(v, sep + 1, sep + 4) == 'open' then n = n + 1 end
  return n
end
local current = redis.call('GET', KEYS[1])
local incoming = rank(ARGV[1])
local held = rank(current)
if incoming > held then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if incoming == held then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

type GateRedis = RedisClient & { matePairGateWrite(key: string, value: string, ttl: number): Promise<number> };

/**
 * The Redis side of the gate. Key names hold a SHA-256 of the pair id, never a member id (a
 * member's erasure cannot find every pair key to delete, and `gdpr verify` reads key names).
 *
 * Fail closed: a read that fails rejects, and callers refuse the action as unavailable (503,
 * retryable) rather than guess the pair is open.
 */
export class PairGate {
  private readonly redis: GateRedis;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    private readonly ttlSeconds = PAIR_GATE_TTL_SECONDS,
  ) {
    if (!('matePairGateWrite' in redis)) redis.defineCommand('matePairGateWrite', { numberOfKeys: 1, lua: WRITE_SCRIPT });
    this.redis = redis as GateRedis;
  }

  /** A pair event of version `version` (a block, an unmatch) committed: every older match is over. */
  async close(x: string, y: string, version: number): Promise<void> {
    await this.write(x, y, version, false);
  }

  /**
   * A match made under pair version `version` committed (matching, after its commit and before the
   * like's answer). With `match`, consumers can record the match from the gate before its event.
   */
  async open(x: string, y: string, version: number, match?: PairGateMatch): Promise<void> {
    await this.write(x, y, version, true, match);
  }

  /** The pair's gate, or null when no producer wrote one lately (the projection alone decides). */
  async read(x: string, y: string): Promise<PairGateState | null> {
    return parse(await this.redis.get(this.key(x, y)));
  }

  /**
   * The gates of many pairs in one round trip (MGET), in the order asked. On a cluster the pairs'
   * keys lie in many slots: one MGET per slot, sent together (inSlotGroups), answered in order.
   */
  async readMany(pairs: readonly (readonly [string, string])[]): Promise<(PairGateState | null)[]> {
    if (pairs.length === 0) return [];
    const keys = pairs.map(([x, y]) => this.key(x, y));
    return (await inSlotGroups(this.redis, keys, (key) => key, (group) => this.redis.mget(group))).map(parse);
  }

  /** The key of a pair (either order). */
  key(x: string, y: string): string {
    const digest = createHash('sha256').update(pairIdOf(x.toLowerCase(), y.toLowerCase())).digest('hex');
    return `${this.prefix}:pair-gate:${digest}`;
  }

  private async write(x: string, y: string, version: number, open: boolean, match?: PairGateMatch): Promise<void> {
    if (!Number.isSafeInteger(version) || version < 0) throw new Error('a pair gate version is a whole number');
    const state = open ? (match ? `open:${matchText(match)}` : 'open') : 'closed';
    await this.redis.matePairGateWrite(this.key(x, y), `${version}:${state}`, this.ttlSeconds);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function matchText({ matchId, matchedAt }: PairGateMatch): string {
  const id = matchId.toLowerCase();
  const at = matchedAt.getTime();
  if (!UUID.test(id) || !Number.isSafeInteger(at) || at < 0) throw new Error('a pair gate match is a uuid and a time');
  return `${id}:${at}`;
}

function parse(value: string | null): PairGateState | null {
  const found = value ? /^(\d+):(?:(closed)|open(?::([0-9a-f-]{36}):(\d+))?)$/.exec(value) : null;
  if (!found) return null;
  const state: PairGateState = { version: Number(found[1]), open: found[2] === undefined };
  if (found[3] !== undefined && UUID.test(found[3])) state.match = { matchId: found[3], matchedAt: new Date(Number(found[4])) };
  return state;
}

/**
 * Whether the gate refuses a match made under `matchPairVersion` (null: an event from before pair
 * versions, older than any gate): the gate holds a newer version than it. Closed at a version above
 * it, the pair event ended it; open at a version above it, a newer match was made, which only pair
 * events between the two can allow, and each of them ended the older match. An `open` gate at the
 * match's own version refuses nothing; a consumer that holds no match yet may record the gate's
 * (ADR 0029).
 */
export function pairGateRefuses(gate: PairGateState | null, matchPairVersion: number | null): boolean {
  return gate !== null && gate.version > (matchPairVersion ?? 0);
}

/** The match an `open` gate names and the pair version it was made under, or null. */
export function pairGateMatch(gate: PairGateState | null): (PairGateMatch & { pairVersion: number }) | null {
  return gate?.open && gate.match ? { ...gate.match, pairVersion: gate.version } : null;
}

/** The provider a service adds to use the gate (on the kit's Redis connection and key prefix). */
export const pairGateProvider: Provider = {
  provide: PairGate,
  useFactory: (redis: RedisClient, env: BaseServiceEnv) => new PairGate(redis, env.KEY_PREFIX),
  inject: [REDIS, SERVICE_ENV],
};
