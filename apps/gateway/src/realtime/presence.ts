import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  isClusterClient,
  pipelineBySlot,
  PRESENCE_TTL_MS,
  presenceField,
  presenceInstanceKey,
  presenceUserKey,
  type RedisClient,
  type SlotCommand,
} from '@mate/server-kit';

/** Presence settings of a gateway instance (tests inject a short TTL through PRESENCE_SETTINGS). */
export interface PresenceSettings {
  /** How long the instance's liveness key lives without a heartbeat (refreshed every third of it). */
  ttlMs: number;
  /**
   * How long a member's presence hash lives without a refresh. Only garbage collection: whether a
   * socket counts depends on its instance's liveness key, so this is long and refreshed rarely
   * (every third of it, per member), which keeps the heartbeat small on a replica with many members.
   */
  hashTtlMs: number;
}

/** Optional provider: the gateway's presence settings, PRESENCE_TTL_MS and an hour by default. */
export const PRESENCE_SETTINGS = Symbol('PRESENCE_SETTINGS');

export const DEFAULT_PRESENCE_SETTINGS: PresenceSettings = { ttlMs: PRESENCE_TTL_MS, hashTtlMs: 60 * 60_000 };

interface LocalMember {
  sockets: Set<string>;
  /** When the member's hash expiry was last set to hashTtlMs from then. */
  refreshedAt: number;
}

/**
 * Records which members this gateway instance holds sockets for (docs/adr/0005-realtime.md,
 * "Presence"), for services' `PresenceReader`:
 * - connect: one pipeline (HSET the socket's field in the member's hash, PEXPIRE the hash);
 *   disconnect: one HDEL of the instance's own field, so a socket recovered on another instance
 *   with the same id keeps its entry there;
 * - a heartbeat every third of the TTL sets this instance's liveness key (and refreshes the hashes
 *   of members whose refresh is due); a crashed instance's entries stop counting once its key
 *   expires;
 * - if Redis lost the key (restart, flush) or a write failed, the heartbeat records every local
 *   socket again and retries the removals that failed;
 * - shutdown deletes the liveness key first (its sockets stop counting at once), then its fields.
 * A socket is never refused or closed because presence could not be written. On a Redis Cluster
 * the members' hashes lie in many slots: the heartbeat's and shutdown's pipelines are one per slot,
 * sent together (pipelineBySlot), and the liveness keys share one hash tag (presenceInstanceKey).
 */
export class PresenceRecorder {
  readonly instanceId = randomUUID();
  private readonly instanceKey: string;
  private readonly local = new Map<string, LocalMember>();
  /** Removals that failed (Redis unreachable), retried on the next heartbeat. */
  private failedRemovals: [string, string][] = [];
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** A heartbeat still waiting for Redis (an outage): the next one is skipped rather than piled up. */
  private beating = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly settings: PresenceSettings,
    private readonly logger: Logger,
  ) {
    // A hash is refreshed at the first heartbeat after a third of its TTL: it must outlive that.
    if (settings.hashTtlMs < settings.ttlMs) throw new Error('Presence hashes must live at least as long as the liveness key');
    this.instanceKey = presenceInstanceKey(prefix, this.instanceId, isClusterClient(redis));
  }

  /** Sets the liveness key (awaited, so sockets count from the first connection) and starts the heartbeat. */
  async start(): Promise<void> {
    await this.redis.set(this.instanceKey, '1', 'PX', this.settings.ttlMs).catch((err: unknown) => this.failed(err, 'start'));
    this.timer = setInterval(() => void this.heartbeat(), Math.max(1, Math.floor(this.settings.ttlMs / 3)));
    this.timer.unref();
  }

  /** Removals waiting for Redis to answer again (retried by the next heartbeat). */
  get pendingRemovals(): number {
    return this.failedRemovals.length;
  }

  added(userId: string, socketId: string): void {
    if (this.closed) return;
    let member = this.local.get(userId);
    if (!member) this.local.set(userId, (member = { sockets: new Set(), refreshedAt: 0 }));
    member.sockets.add(socketId);
    member.refreshedAt = Date.now();
    const key = presenceUserKey(this.prefix, userId);
    this.redis
      .pipeline()
      .hset(key, presenceField(this.instanceId, socketId), this.instanceId)
      .pexpire(key, this.settings.hashTtlMs)
      .exec()
      .then(
        (results) => {
          const failure = results?.find(([err]) => err);
          if (failure) this.failed(failure[0], 'record');
        },
        (err: unknown) => this.failed(err, 'record'),
      );
  }

  removed(userId: string, socketId: string): void {
    if (this.closed) return;
    const member = this.local.get(userId);
    member?.sockets.delete(socketId);
    if (member?.sockets.size === 0) this.local.delete(userId);
    this.redis.hdel(presenceUserKey(this.prefix, userId), presenceField(this.instanceId, socketId)).catch((err: unknown) => {
      this.failedRemovals.push([userId, socketId]);
      this.failed(err, 'remove');
    });
  }

  /**
   * Refreshes the liveness key and the member hashes that are due; records everything again if
   * Redis lost the key or a write failed since the last heartbeat, and retries failed removals.
   */
  async heartbeat(): Promise<void> {
    if (this.closed || this.beating) return;
    this.beating = true;
    try {
      const previous = await this.redis.set(this.instanceKey, '1', 'PX', this.settings.ttlMs, 'GET');
      const resync = previous === null || this.dirty;
      this.dirty = false;
      const now = Date.now();
      const dueBefore = now - this.settings.hashTtlMs / 3;
      const removals = this.failedRemovals.splice(0);
      const refreshed: LocalMember[] = [];
      const commands: SlotCommand[] = [];
      for (const [userId, socketId] of removals) {
        const key = presenceUserKey(this.prefix, userId);
        commands.push({ key, add: (p) => p.hdel(key, presenceField(this.instanceId, socketId)) });
      }
      for (const [userId, member] of this.local) {
        if (!resync && member.refreshedAt > dueBefore) continue;
        const key = presenceUserKey(this.prefix, userId);
        if (resync) {
          for (const socketId of member.sockets) commands.push({ key, add: (p) => p.hset(key, presenceField(this.instanceId, socketId), this.instanceId) });
        }
        commands.push({ key, add: (p) => p.pexpire(key, this.settings.hashTtlMs) });
        refreshed.push(member);
      }
      if (commands.length === 0) return;
      const results = await pipelineBySlot(this.redis, commands);
      const failure = results.find(([err]) => err);
      if (failure) {
        this.failedRemovals.push(...removals);
        this.failed(failure[0], 'heartbeat');
      } else {
        for (const member of refreshed) member.refreshedAt = now;
      }
    } catch (err) {
      this.failed(err, 'heartbeat');
    } finally {
      this.beating = false;
    }
  }

  /**
   * A clean shutdown: the liveness key goes first (every socket of this instance stops counting at
   * once), then this instance's fields. Later disconnects of the closing sockets are ignored.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const commands: SlotCommand[] = [{ key: this.instanceKey, add: (p) => p.del(this.instanceKey) }];
    for (const [userId, member] of this.local) {
      const key = presenceUserKey(this.prefix, userId);
      const fields = [...member.sockets].map((socketId) => presenceField(this.instanceId, socketId));
      commands.push({ key, add: (p) => p.hdel(key, ...fields) });
    }
    this.local.clear();
    // On a cluster the liveness key goes first on its own: every socket stops counting before any field goes.
    const [first, ...rest] = isClusterClient(this.redis) ? [commands.slice(0, 1), ...(commands.length > 1 ? [commands.slice(1)] : [])] : [commands];
    try {
      await pipelineBySlot(this.redis, first);
      for (const batch of rest) await pipelineBySlot(this.redis, batch);
    } catch (err) {
      this.logger.warn({ err: { message: errorMessage(err) } }, 'presence cleanup failed');
    }
  }

  /** Stops the heartbeat and forgets, without touching Redis: what a crash leaves behind (tests). */
  abandon(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private failed(err: unknown, what: string): void {
    this.dirty = true;
    this.logger.warn({ err: { message: errorMessage(err) } }, `presence ${what} failed`);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
