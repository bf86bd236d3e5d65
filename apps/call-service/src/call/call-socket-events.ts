import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AuthPrincipal, SocketOk } from '@mate/contracts';
import { asUnavailable, CountedPerMember, LOGGER, SocketEvent } from '@mate/server-kit';
import { CallRateLimiter } from './call-rate-limits';
import { CallsService } from './calls.service';
import { CallInitiateDto, CallPeerDto, CallSignalDto, SubtitleDto } from './dto/call-requests.dto';

/**
 * The call events members send on their socket (spec 000 §7); the gateway delivers them here with
 * the member's token and relays the answer as the acknowledgement, or `{ error }` for a refusal.
 * A failure that is not a refusal (database or Redis away) is answered 503. The member's limits
 * of an event are declared here (`@CountedPerMember(CallRateLimiter, kind)`) and counted by the
 * kit once the payload is valid, before the handler runs.
 */
@Injectable()
export class CallSocketEvents {
  constructor(
    private readonly calls: CallsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @SocketEvent('call:initiate')
  @CountedPerMember(CallRateLimiter, 'call')
  async initiate(payload: CallInitiateDto, sender: AuthPrincipal): Promise<SocketOk & { callId: string }> {
    const { callId } = await this.guard('call:initiate', () =>
      this.calls.initiate(sender.userId, payload.to),
    );
    return { ok: true, callId };
  }

  @SocketEvent('call:accept')
  async accept(payload: CallPeerDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.guard('call:accept', () => this.calls.accept(sender.userId, payload.to));
    return { ok: true };
  }

  @SocketEvent('call:reject')
  async reject(payload: CallPeerDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.guard('call:reject', () => this.calls.reject(sender.userId, payload.to));
    return { ok: true };
  }

  @SocketEvent('call:end')
  async end(payload: CallPeerDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.guard('call:end', () => this.calls.end(sender.userId, payload.to));
    return { ok: true };
  }

  @SocketEvent('call:signal')
  @CountedPerMember(CallRateLimiter, 'signal')
  async signal(payload: CallSignalDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.guard('call:signal', () => this.calls.signal(sender.userId, payload.to, payload.signal));
    return { ok: true };
  }

  @SocketEvent('subtitle')
  @CountedPerMember(CallRateLimiter, 'subtitle')
  async subtitle(payload: SubtitleDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.guard('subtitle', () => this.calls.subtitle(sender.userId, payload.recipientId, payload.text));
    return { ok: true };
  }

  private async guard<T>(event: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw asUnavailable(this.logger, { event }, e);
    }
  }
}
