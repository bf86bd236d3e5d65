import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import {
  CLOCK,
  LOGGER,
  projectedMatchOf,
  type Clock,
  type EventHandlers,
  type EventHandlerSet,
} from '@mate/server-kit';
import { CallNotifier } from './call-notifier';
import { CallRepository, type EndedRow } from './call.repository';
import { MemberRepository } from './member.repository';
import { PairRepository } from './pair.repository';
import { afterTransaction } from './after-transaction';
import { CallEndedFacts } from './call-ended-facts';
import { CallMemberErasure } from '../member-data/call-member-erasure';
import { TranscriptionService } from '../transcription/transcription.service';

/**
 * Events call-service consumes (each payload read against its catalogue class by the consumer: ids
 * lower case, a pair ascending): names (profile.updated), matches (match.created), a member's
 * suspension (user.suspended) and the pair's safety state (user.blocked, user.unblocked,
 * match.ended; ADR 0014): the kit's projections write those first (AppModule's `projections`), then
 * call's own part here. Every pair event ends the pair's match, so it also ends the pair's active
 * call (call:ended to both).
 */
@Injectable()
export class CallEventHandlers implements EventHandlerSet {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly notifier: CallNotifier,
    private readonly records: CallRepository,
    private readonly pairs: PairRepository,
    private readonly members: MemberRepository,
    private readonly erasure: CallMemberErasure,
    private readonly transcription: TranscriptionService,
    private readonly facts: CallEndedFacts,
  ) {}

  handlers(): EventHandlers {
    return {
      'match.created': (payload, manager) => this.pairs.recordMatch(manager, projectedMatchOf(payload)),
      // The name and picture the history shows; an older version never overwrites a newer one.
      'profile.updated': (payload, manager, envelope) =>
        this.members.saveProfile(manager, payload, envelope.aggregateVersion ?? 0),
      'user.blocked': (payload, manager) => this.endCallsOfPair(manager, payload.userIds),
      'user.unblocked': (payload, manager) => this.endCallsOfPair(manager, payload.userIds),
      'match.ended': (payload, manager) => this.endCallsOfPair(manager, payload.userIds),
      'user.suspended': (payload, manager) => this.endCallsOfSuspended(manager, payload.userId),
      'user.deleted': (payload, manager) => this.eraseMember(manager, payload.userId),
    };
  }

  /**
   * user.suspended (auth-service, the whole suspension state; only the newest per member is
   * applied), after the kit's projection recorded it in this transaction: while suspended,
   * call:initiate to or from the member is refused like a pair that is not matched (the callable
   * rule reads the projection), and the suspension ends the member's active call (call:ended to
   * both). An unsuspend (the kit's alone) makes their matches callable again.
   */
  async endCallsOfSuspended(manager: EntityManager, userId: string): Promise<void> {
    // The lock call:initiate takes for each of its members: a call being set up with the member
    // either committed (and ends here) or waits and then finds them suspended (this transaction's
    // write is seen by nobody before it commits, after the calls are ended).
    await this.records.lockMembers(manager, userId, userId);
    const endedCalls = await this.records.endCallsOf(manager, userId, this.clock.now());
    await this.facts.publish(manager, endedCalls);
    if (endedCalls.length > 0) afterTransaction(manager, () => this.pushEnded(endedCalls));
  }

  /** A deleted member (src/member-data/call-member-erasure.ts), and their transcription counter. */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await this.erasure.erase(manager, userId);
    await this.transcription.forget(userId);
  }

  /**
   * A pair event (the pair ascending, as the consumer read it), after the kit's pair projection
   * recorded it in this transaction, under the pair's lock (as match.created takes it).
   */
  async endCallsOfPair(manager: EntityManager, [a, b]: readonly [string, string]): Promise<void> {
    await this.pairs.lockPair(manager, a, b);
    // Every pair event means "no match now": the pair's active call ends.
    const endedCalls = await this.records.endBetween(manager, a, b, this.clock.now());
    await this.facts.publish(manager, endedCalls);
    // Pushed once the consumer's transaction is over, for the calls it did end (a rolled-back
    // event pushes nothing; its retry ends them again).
    if (endedCalls.length > 0) afterTransaction(manager, () => this.pushEnded(endedCalls));
  }

  private async pushEnded(calls: EndedRow[]): Promise<void> {
    try {
      const ids = await this.records.finalOf(calls.map((c) => c.id));
      await Promise.all(calls.filter((c) => ids.has(c.id)).map((c) => this.notifier.endedForBoth(c)));
    } catch (e) {
      this.logger.warn(
        { error: e instanceof Error ? e.name : 'Error' },
        'call:ended push after a pair event or a suspension failed',
      );
    }
  }
}
