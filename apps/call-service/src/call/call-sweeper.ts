import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { CLOCK, LOGGER, type Clock } from '@mate/server-kit';
import { CallEnv } from '../call.env';
import { CallNotifier } from './call-notifier';
import { CALL_PRESENCE, type CallPresence } from './call-presence';
import { CallRepository, type EndedRow } from './call.repository';
import { CallsService } from './calls.service';

/**
 * The call timers, by sweeping the database (the state survives restarts; every replica with
 * WORKERS=on sweeps, the conditional UPDATEs let one end each call and only that one pushes; API-only
 * replicas and one-off commands such as `migrate` do not):
 * - a call not answered within CALL_RING_TIMEOUT_MS becomes missed; both get call:ended;
 * - a member of an active call with no socket (presence) is recorded offline from the first
 *   sweep that sees it; once offline longer than CALL_DISCONNECT_GRACE_MS the call ends
 *   (completed if answered, else missed) and both get call:ended. Coming back clears it.
 * Times come from the injectable clock, so tests advance it instead of waiting.
 */
@Injectable()
export class CallSweeper implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly records: CallRepository,
    private readonly notifier: CallNotifier,
    private readonly calls: CallsService,
    private readonly env: CallEnv,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CALL_PRESENCE) private readonly presence: CallPresence,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    if (this.env.WORKERS === 'on' && this.env.CALL_SWEEP_INTERVAL_MS > 0) {
      this.timer = setInterval(() => void this.sweepQuietly(), this.env.CALL_SWEEP_INTERVAL_MS);
      this.timer.unref();
    }
  }

  async onApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One sweep; answers the calls it ended. */
  async sweep(): Promise<EndedRow[]> {
    const now = this.clock.now();
    // Each ending UPDATE writes its calls' call.ended facts in its own transaction.
    const missed = await this.calls.endInTransaction((m) =>
      this.records.endUnanswered(m, now, this.env.CALL_RING_TIMEOUT_MS),
    );
    const members = await this.records.activeMembers();
    let left: EndedRow[] = [];
    if (members.length > 0) {
      const online = await this.presence.onlineOf(members);
      await this.records.markOffline(now, [...online]);
      left = await this.calls.endInTransaction((m) =>
        this.records.endLeft(m, now, this.env.CALL_DISCONNECT_GRACE_MS),
      );
    }
    const ended = [...missed, ...left];
    await Promise.all(ended.map((c) => this.notifier.endedForBoth(c)));
    return ended;
  }

  private async sweepQuietly(): Promise<void> {
    if (this.running) return;
    this.running = this.sweep()
      .then(() => undefined)
      .catch((e: unknown) =>
        this.logger.warn({ error: e instanceof Error ? e.message : String(e) }, 'call sweep failed'),
      )
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
