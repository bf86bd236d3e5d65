import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BaseServiceEnv, isClusterClient, REDIS, SERVICE_ENV, type RedisClient } from '@mate/server-kit';

/** How long a burst's keys live without the job that ends it (a stopped worker catches up within it). */
const BURST_TTL_MS = 3600_000;

/**
 * Adds a message to its conversation's burst; answers a new burst's token when this message
 * started one (the caller then schedules the job that ends it), null when a burst was open.
 * A message id counted twice (a redelivered event) counts once.
 */
const ADD_SCRIPT = `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then return ARGV[2] end
return false
`;

/** Ends the burst: how many messages it had; a message after this starts a new burst. */
const TAKE_SCRIPT = `
local n = redis.call('SCARD', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return n
`;

type BurstRedis = RedisClient & {
  matePushBurstAdd(k1: string, k2: string, id: string, token: string, ttl: number): Promise<string | null>;
  matePushBurstTake(k1: string, k2: string): Promise<number>;
};

/**
 * Collapsing (issue 12): the messages one sender sends one recipient within the collapse window
 * become one push "N new messages". Redis keeps each open burst: the set of its message ids and
 * a marker that a job to end it is scheduled. Both steps are one script each, so a message is
 * either counted in the burst being ended or starts the next one.
 */
@Injectable()
export class PushBursts {
  private readonly redis: BurstRedis;
  private readonly cluster: boolean;

  constructor(
    @Inject(REDIS) redis: RedisClient,
    @Inject(SERVICE_ENV) private readonly env: BaseServiceEnv,
  ) {
    if (!('matePushBurstAdd' in redis)) {
      redis.defineCommand('matePushBurstAdd', { numberOfKeys: 2, lua: ADD_SCRIPT });
      redis.defineCommand('matePushBurstTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
    }
    this.redis = redis as BurstRedis;
    this.cluster = isClusterClient(redis);
  }

  async add(recipientId: string, senderId: string, messageId: string): Promise<string | null> {
    const [messages, marker] = this.keys(recipientId, senderId);
    return this.redis.matePushBurstAdd(messages, marker, messageId, randomUUID(), BURST_TTL_MS);
  }

  async take(recipientId: string, senderId: string): Promise<number> {
    const [messages, marker] = this.keys(recipientId, senderId);
    return Number(await this.redis.matePushBurstTake(messages, marker));
  }

  /** Whether a burst is open (tests wait for one to end). */
  async isOpen(recipientId: string, senderId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys(recipientId, senderId)[1])) === 1;
  }

  /** A burst's two keys; on a cluster the pair carries one hash tag, so both scripts stay in one slot. */
  private keys(recipientId: string, senderId: string): [string, string] {
    const pair = this.cluster ? `{${recipientId}:${senderId}}` : `${recipientId}:${senderId}`;
    const base = `${this.env.KEY_PREFIX}:push:burst:${pair}`;
    return [`${base}:messages`, `${base}:job`];
  }
}
