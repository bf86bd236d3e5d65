import { createHash } from 'node:crypto';
import type { Provider } from '@nestjs/common';
import type Redis from 'ioredis';
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
 *   it wins over `closed`).
 */
export interface PairGateState {
  version: number;
  open: boolean;
}

/** How long an entry lives: far longer than events take to reach the projections. */
export const PAIR_GATE_TTL_SECONDS = 24 * 60 * 60;

/**
 * Writes `ARGV[1]` (`<version>:<open|closed>`) unless the entry holds a newer state; refreshes the
 * lifetime of an equal one. One script, so two writers never interleave a read and a write.
 */
const WRITE_SCRIPT = `
local rank = function(v)
  if not v then return -1 end
  local sep = string.find(v, ':', 1, true)
  local n = tonumber(string.sub(v, 1, sep - 1)) * 2
  if string.sub(v, sep + 1) == 'open' then n = n + 1 end
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

type GateRedis = Redis & { matePairGateWrite(key: string, value: string, ttl: number): Promise<number> };

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
    redis: Redis,
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

  /** A match made under pair version `version` committed (matching, when it writes the gate). */
  async open(x: string, y: string, version: number): Promise<void> {
    await this.write(x, y, version, true);
  }

  /** The pair's gate, or null when no producer wrote one lately (the projection alone decides). */
  async read(x: string, y: string): Promise<PairGateState | null> {
    return parse(await this.redis.get(this.key(x, y)));
  }

  /** The key of a pair (either order). */
  key(x: string, y: string): string {
    const digest = createHash('sha256').update(pairIdOf(x.toLowerCase(), y.toLowerCase())).digest('hex');
    return `${this.prefix}:pair-gate:${digest}`;
  }

  private async write(x: string, y: string, version: number, open: boolean): Promise<void> {
    if (!Number.isSafeInteger(version) || version < 0) throw new Error('a pair gate version is a whole number');
    await this.redis.matePairGateWrite(this.key(x, y), `${version}:${open ? 'open' : 'closed'}`, this.ttlSeconds);
  }
}

function parse(value: string | null): PairGateState | null {
  const match = value ? /^(\d+):(open|closed)$/.exec(value) : null;
  return match ? { version: Number(match[1]), open: match[2] === 'open' } : null;
}

/**
 * Whether the gate refuses a match made under `matchPairVersion` (null: an event from before pair
 * versions, older than any gate): closed at a version above it. An `open` gate refuses nothing
 * here; a consumer that holds no match yet may act on it (the match-side use, ADR 0024).
 */
export function pairGateRefuses(gate: PairGateState | null, matchPairVersion: number | null): boolean {
  return gate !== null && !gate.open && gate.version > (matchPairVersion ?? 0);
}

/** The provider a service adds to use the gate (on the kit's Redis connection and key prefix). */
export const pairGateProvider: Provider = {
  provide: PairGate,
  useFactory: (redis: Redis, env: BaseServiceEnv) => new PairGate(redis, env.KEY_PREFIX),
  inject: [REDIS, SERVICE_ENV],
};
