import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ServerEventName, ServerEventPayload, ServerToClientEvents } from '@mate/contracts';
import { LOGGER, RealtimeEmitter } from '@mate/server-kit';

/**
 * The realtime pushes of calls, made after the commit. Best effort: a failure (Redis down) is
 * logged with the event name only (never a signal, a subtitle or a name) and never fails the
 * member's request; the call's state is in the database either way.
 */
@Injectable()
export class CallNotifier {
  constructor(
    private readonly realtime: RealtimeEmitter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async push<E extends ServerEventName>(to: string, event: E, payload: ServerEventPayload<E>): Promise<void> {
    try {
      await this.realtime.toUser(to).emit(event, ...([payload] as Parameters<ServerToClientEvents[E]>));
    } catch (e) {
      this.logger.warn({ event, to, error: e instanceof Error ? e.name : 'Error' }, 'call push failed');
    }
  }

  /** `call:ended` to both members of a call that ended without either's request (timeout, block, disconnect). */
  async endedForBoth(call: { caller_id: string; recipient_id: string }): Promise<void> {
    await Promise.all([
      this.push(call.caller_id, 'call:ended', { from: call.recipient_id }),
      this.push(call.recipient_id, 'call:ended', { from: call.caller_id }),
    ]);
  }
}
