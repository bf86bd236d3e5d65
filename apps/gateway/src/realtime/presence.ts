import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { PRESENCE_TTL_MS, presenceField, presenceInstanceKey, presenceUserKey } from '@mate/server-kit';

/** Presence settings of a gateway instance (tests inject a short TTL through PRESENCE_SETTINGS). */
export interface PresenceSettings {
  /** How long the instance's liveness key (and its members' hashes) live without a heartbeat. */
  ttlMs: number;
}

/** Optional provider: the gateway's presence settings, PRESENCE_TTL_MS by default. */
export const PRESENCE_SETTINGS = Symbol('PRESENCE_SETTINGS');

export const DEFAULT_PRESENCE_SETTINGS: PresenceSettings = { ttlMs: PRESENCE_TTL_MS };

/**
 * Records which members this gateway instance holds sockets for (docs/adr/0005-realtime.md,
 * "Presence"), for services' `PresenceReader`:
 * - connect: one pipeline (HSET the socket's field in the member's hash, PEXPIRE the hash);
 *   disconnect: one HDEL of the instance's own field, so a socket recovered on another instance
 *   with the same id keeps its entry there;
 * - a heartbeat every third of the TTL sets this instance's liveness key and refreshes its members'
 *   hashes; a crashed instance's entries stop counting once its key expires;
 * - if Redis lost the key (restart, flush) or a write failed, the heartbeat records every local
 *   socket again and retries the removals that failed;
 * - shutdown deletes the liveness key first (its sockets stop counting at once), then its fields.
 */
export class PresenceRecorder {
  readonly instanceId = randomUUID();
  private readonly instanceKey: string;
  /** userId → socketIds of this instance. */
  private readonly local = new Map<string, Set<string>>();
  /** Removals that failed (Redis unreachable), retried on the next heartbeat. */
  private failedRemovals: [string, string][] = [];
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** A heartbeat still waiting for Redis (an outage): the next one is skipped rather than piled up. */
  private beating = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly settings: PresenceSettings,
    private readonly logger: Logger,
  ) {
    this.instanceKey = presenceInstanceKey(prefix, this.instanceId);
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
    let sockets = this.local.get(userId);
    if (!sockets) this.local.set(userId, (sockets = new Set()));
    sockets.add(socketId);
    const key = presenceUserKey(this.prefix, userId);
    this.redis
      .pipeline()
      .hset(key, presenceField(this.instanceId, socketId), this.instanceId)
      .pexpire(key, this.settings.ttlMs)
      .exec()
      .then(
        (results) => {
          if (results?.some(([err]) => err)) this.failed(results.find(([err]) => err)?.[0], 'record');
        },
        (err: unknown) => this.failed(err, 'record'),
      );
  }

  removed(userId: string, socketId: string): void {
    if (this.closed) return;
    const sockets = this.local.get(userId);
    sockets?.delete(socketId);
    if (sockets?.size === 0) this.local.delete(userId);
    this.redis.hdel(presenceUserKey(this.prefix, userId), presenceField(this.instanceId, socketId)).catch((err: unknown) => {
      this.failedRemovals.push([userId, socketId]);
      this.failed(err, 'remove');
    });
  }

  /** Refreshes the liveness key; records everything again if Redis lost it or a write failed. */
  async heartbeat(): Promise<void> {
    if (this.closed || this.beating) return;
    this.beating = true;
    try {
      const previous = await this.redis.set(this.instanceKey, '1', 'PX', this.settings.ttlMs, 'GET');
      const resync = previous === null || this.dirty;
      this.dirty = false;
      const removals = this.failedRemovals.splice(0);
      const pipeline = this.redis.pipeline();
      for (const [userId, socketId] of removals) pipeline.hdel(presenceUserKey(this.prefix, userId), presenceField(this.instanceId, socketId));
      for (const [userId, sockets] of this.local) {
        const key = presenceUserKey(this.prefix, userId);
        if (resync) for (const socketId of sockets) pipeline.hset(key, presenceField(this.instanceId, socketId), this.instanceId);
        pipeline.pexpire(key, this.settings.ttlMs);
      }
      if (pipeline.length === 0) return;
      const results = await pipeline.exec();
      if (results?.some(([err]) => err)) {
        this.failedRemovals.push(...removals);
        this.failed(results.find(([err]) => err)?.[0], 'heartbeat');
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
    const pipeline = this.redis.pipeline().del(this.instanceKey);
    for (const [userId, sockets] of this.local) {
      pipeline.hdel(presenceUserKey(this.prefix, userId), ...[...sockets].map((socketId) => presenceField(this.instanceId, socketId)));
    }
    this.local.clear();
    await pipeline.exec().catch((err: unknown) => this.logger.warn({ err: { message: errorMessage(err) } }, 'presence cleanup failed'));
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
