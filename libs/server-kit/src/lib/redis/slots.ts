import { createRequire } from 'node:module';
import type { ChainableCommander } from 'ioredis';
import { isClusterClient, type RedisClient } from './redis';

/**
 * The Redis Cluster hash slot (0-16383) of a key, by its hash tag when it has one: the function
 * ioredis routes commands with (cluster-key-slot, which ships no types).
 */
const calculateSlot = createRequire(__filename)('cluster-key-slot') as (key: string) => number;

/**
 * Keys on a Redis Cluster (ADR 0032). A command, MULTI or script may only touch keys of one hash
 * slot: keys that belong together carry the same hash tag (`{…}`: only that part is hashed), and a
 * batch that spans members is split by slot here. On one server nothing is split: one call, as before.
 */

/**
 * The hash tag of a member's keys on a cluster: their sessions, their session list and their
 * per-member counters share one slot, so the guard's session check and the member's counters stay
 * one script. On one server the id as it is (key names as before).
 */
export function memberTag(userId: string, cluster: boolean): string {
  return cluster ? `{${userId.toLowerCase()}}` : userId;
}

/** The hash slot of `key`. */
export function slotOf(key: string): number {
  return calculateSlot(key);
}

/**
 * Runs `run` over `items` in groups that share a slot (by `keyOf`), the groups in parallel, and
 * answers each item's result in the items' order: one call on one server, one per slot on a cluster.
 * `run` answers one result per item of its group, in the group's order.
 */
export async function inSlotGroups<T, R>(
  client: RedisClient,
  items: readonly T[],
  keyOf: (item: T) => string,
  run: (group: T[]) => Promise<R[]>,
): Promise<R[]> {
  if (items.length === 0) return [];
  if (!isClusterClient(client)) return run([...items]);
  const groups = new Map<number, number[]>();
  items.forEach((item, i) => {
    const slot = slotOf(keyOf(item));
    const group = groups.get(slot);
    if (group) group.push(i);
    else groups.set(slot, [i]);
  });
  const out = new Array<R>(items.length);
  await Promise.all(
    [...groups.values()].map(async (indices) => {
      const results = await run(indices.map((i) => items[i]));
      if (results.length !== indices.length) throw new Error('Redis answered a partial batch');
      indices.forEach((index, j) => {
        out[index] = results[j];
      });
    }),
  );
  return out;
}

/** Deletes `keys`: one DEL on one server, one per slot on a cluster. Answers how many existed. */
export async function deleteKeys(client: RedisClient, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const counts = await inSlotGroups(client, keys, (key) => key, async (group) => {
    const deleted = await client.del(...group);
    // One count per group, spread so the helper's per-item contract holds.
    return group.map((_, i) => (i === 0 ? deleted : 0));
  });
  return counts.reduce((n, c) => n + c, 0);
}

/** Every key matching `match`: SCAN on one server, SCAN on each master of a cluster. */
export async function scanKeys(client: RedisClient, match: string, count = 500): Promise<string[]> {
  const nodes = isClusterClient(client) ? client.nodes('master') : [client];
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', count);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return found;
}

/** One command of a pipeline split by slot: its key, and how it adds itself to a pipeline. */
export interface SlotCommand {
  key: string;
  add(pipeline: ChainableCommander): void;
}

/**
 * Runs `commands` as one pipeline on one server (one round trip, as before), or as one pipeline per
 * slot on a cluster, sent together (an ioredis Cluster refuses a pipeline whose keys lie on several
 * nodes). Answers each command's [error, result] in order; rejects when a pipeline could not be sent.
 */
export async function pipelineBySlot(client: RedisClient, commands: readonly SlotCommand[]): Promise<[Error | null, unknown][]> {
  return inSlotGroups(client, commands, (c) => c.key, async (group) => {
    const pipeline = client.pipeline();
    for (const command of group) command.add(pipeline);
    return (await pipeline.exec()) ?? [];
  });
}
