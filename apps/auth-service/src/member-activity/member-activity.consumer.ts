import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { createQueueConnection, LOGGER, memberActivityStreamKey, OutboxService, type RedisClient } from '@mate/server-kit';
import { AuthEnv } from '../auth.env';
import { MemberActivityRepository } from './member-activity.repository';

/** The consumer group every auth-service replica reads the activity stream in. */
export const MEMBER_ACTIVITY_GROUP = 'auth-member-activity';
/** Notes read (or claimed) at once. */
const BATCH = 100;
/** After a failed read (Redis away), the wait before the next. */
const RETRY_MS = 1_000;
/** How long stopping waits for the note in hand before cutting the connection. */
const STOP_GRACE_MS = 2_000;

type StreamEntry = [id: string, fields: string[]];

/** What one note did: a new day recorded (fact written), a day already recorded, or skipped. */
export type ActivityOutcome = 'recorded' | 'known-day' | 'no-account' | 'unreadable';

/**
 * The consumer of the member activity stream (issue 13): the kit's session store notes a member's
 * sign-in and each session's first request of a new UTC day there (`{ userId, at }`), which keeps
 * the hot path to one comparison in its touch script; this turns the notes into the once-a-day
 * fact `member.active` and `users.last_active_at`.
 *
 * Every replica reads in one consumer group (XREADGROUP, BLOCK MEMBER_ACTIVITY_BLOCK_MS); a note
 * is acknowledged (and deleted: the stream holds only unprocessed notes, no member id lingers)
 * after its transaction commits. A note another consumer took and never acknowledged (it died
 * mid-way) is claimed after MEMBER_ACTIVITY_CLAIM_IDLE_MS (XAUTOCLAIM), and one of ours whose
 * transaction failed is retried the same way; recording is idempotent (one row per member and
 * day), so a note handled twice writes one fact. Off when WORKERS=off.
 */
@Injectable()
export class MemberActivityConsumer implements OnModuleInit, OnApplicationShutdown {
  private connection: RedisClient | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  /** True while a blocking read waits: stopping then cuts the connection rather than wait it out. */
  private reading = false;
  private wake: (() => void) | null = null;
  private nextClaimAt = 0;
  private readonly key: string;
  readonly consumerName = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    @Inject(AuthEnv) private readonly env: AuthEnv,
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly activity: MemberActivityRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.key = memberActivityStreamKey(env.KEY_PREFIX);
  }

  onModuleInit() {
    if (this.env.WORKERS === 'on') this.start();
  }

  async onApplicationShutdown() {
    await this.stop();
  }

  /** Starts reading (a no-op while it reads). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.nextClaimAt = 0;
    // Its own connection: a blocking read would hold up every other command on a shared one.
    const connection = createQueueConnection(this.env);
    connection.on('error', () => undefined);
    this.connection = connection;
    this.loop = this.run(connection);
  }

  /** Stops after the read or note in hand (a read waits at most MEMBER_ACTIVITY_BLOCK_MS). */
  async stop(): Promise<void> {
    this.stopping = true;
    const loop = this.loop;
    const connection = this.connection;
    this.loop = null;
    this.connection = null;
    this.wake?.();
    // A blocking read holds nothing: cut it. A note in hand finishes (or, cut at its
    // acknowledgement, is claimed again later and recorded once).
    if (connection && this.reading) connection.disconnect();
    if (loop) {
      // A note in hand gets a moment to finish; a connection that hangs is cut (the note is claimed again later).
      const cut = setTimeout(() => connection?.disconnect(), STOP_GRACE_MS);
      await loop;
      clearTimeout(cut);
    }
    if (connection && connection.status !== 'end')
      await connection.quit().catch(() => connection.disconnect());
  }

  private async run(connection: RedisClient): Promise<void> {
    let grouped = false;
    while (!this.stopping) {
      try {
        if (!grouped) grouped = await this.ensureGroup(connection);
        if (Date.now() >= this.nextClaimAt) {
          this.nextClaimAt =
            Date.now() + Math.max(50, Math.floor(this.env.MEMBER_ACTIVITY_CLAIM_IDLE_MS / 2));
          await this.claimAbandoned(connection);
        }
        this.reading = true;
        const answer = (await connection
          .xreadgroup(
            'GROUP',
            MEMBER_ACTIVITY_GROUP,
            this.consumerName,
            'COUNT',
            BATCH,
            'BLOCK',
            this.env.MEMBER_ACTIVITY_BLOCK_MS,
            'STREAMS',
            this.key,
            '>',
          )
          .finally(() => {
            this.reading = false;
          })) as [string, StreamEntry[]][] | null;
        for (const [, entries] of answer ?? []) await this.handleAll(connection, entries);
      } catch (e) {
        if (this.stopping) break;
        // The group is gone (the stream was deleted): made again on the next turn.
        if (e instanceof Error && e.message.includes('NOGROUP')) grouped = false;
        this.logger.warn(
          { err: { name: (e as Error)?.name, message: (e as Error)?.message } },
          'member activity read failed; retrying',
        );
        await this.pause(RETRY_MS);
      }
    }
  }

  private async ensureGroup(connection: RedisClient): Promise<boolean> {
    try {
      // From the stream's start: notes written before the first replica ever ran are not lost.
      await connection.xgroup('CREATE', this.key, MEMBER_ACTIVITY_GROUP, '0', 'MKSTREAM');
    } catch (e) {
      if (!(e instanceof Error && e.message.includes('BUSYGROUP'))) throw e;
    }
    return true;
  }

  /** Notes left unacknowledged longer than the claim idle time, by any consumer of the group. */
  private async claimAbandoned(connection: RedisClient): Promise<void> {
    let cursor = '0-0';
    do {
      const answer = (await connection.xautoclaim(
        this.key,
        MEMBER_ACTIVITY_GROUP,
        this.consumerName,
        this.env.MEMBER_ACTIVITY_CLAIM_IDLE_MS,
        cursor,
        'COUNT',
        BATCH,
      )) as [string, (StreamEntry | null)[], ...unknown[]];
      cursor = answer[0];
      const entries = answer[1].filter((e): e is StreamEntry => Array.isArray(e));
      if (entries.length > 0)
        this.logger.info({ notes: entries.length }, 'member activity notes claimed from a stalled consumer');
      await this.handleAll(connection, entries);
    } while (cursor !== '0-0' && !this.stopping);
  }

  private async handleAll(connection: RedisClient, entries: StreamEntry[]): Promise<void> {
    for (const [id, fields] of entries) {
      let outcome: ActivityOutcome;
      try {
        outcome = await this.record(fields);
      } catch (e) {
        // Left pending: claimed again after the idle time (by this consumer or another).
        this.logger.warn(
          { err: { name: (e as Error)?.name, message: (e as Error)?.message } },
          'member activity note not recorded; it will be retried',
        );
        continue;
      }
      if (outcome === 'unreadable')
        this.logger.error({ noteId: id }, 'unreadable member activity note dropped');
      await connection.multi().xack(this.key, MEMBER_ACTIVITY_GROUP, id).xdel(this.key, id).exec();
    }
  }

  /**
   * One note, in one transaction: a new day (the repository records it only when it is new) writes
   * the fact `member.active` too; a day already recorded or a deleted account writes nothing.
   */
  async record(fields: string[]): Promise<ActivityOutcome> {
    const note = readNote(fields);
    if (!note) return 'unreadable';
    const at = new Date(note.at);
    const day = at.toISOString().slice(0, 10);
    return this.dataSource.transaction(async (m) => {
      const row = await this.activity.recordDay(m, note.userId, day, at);
      if (!row.known) return 'no-account';
      if (!row.recorded) return 'known-day';
      await this.outbox.publish(m, 'member.active', { userId: note.userId, day, at: at.toISOString() });
      return 'recorded';
    });
  }

  /** Waits `ms`, or less when stopped. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).then(() => {
      this.wake = null;
    });
  }
}

/** `{ userId, at }` from a stream entry's flat field list, or null. */
function readNote(fields: string[]): { userId: string; at: number } | null {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i], fields[i + 1]);
  const userId = values.get('userId');
  const at = Number(values.get('at'));
  if (!userId || !isUUID(userId) || !Number.isFinite(at) || at <= 0 || Number.isNaN(new Date(at).getTime()))
    return null;
  return { userId: userId.toLowerCase(), at };
}
