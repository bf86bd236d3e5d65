import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { CLOCK, eraseMemberTraces, LOGGER, type Clock } from '@mate/server-kit';
import { CallEndedFacts } from '../call/call-ended-facts';
import { CallNotifier } from '../call/call-notifier';
import { CallRateLimiter } from '../call/call-rate-limits';
import { afterTransaction } from '../call/after-transaction';
import { CallRepository } from '../call/call.repository';
import { MemberRepository } from '../call/member.repository';
import { PairRepository } from '../call/pair.repository';

/**
 * `user.deleted` in calls (README "Member data", docs/adr/0016-member-data.md), one transaction,
 * idempotent: the member's active call ends (call:ended to the other member after the commit);
 * their call records stay for the other member with the member anonymised ('Unknown User' in
 * Call History, no picture); their projections (name, matches, pair states), the kit's traces and
 * their rate-limit keys go.
 */
@Injectable()
export class CallMemberErasure {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: CallRateLimiter,
    private readonly notifier: CallNotifier,
    private readonly facts: CallEndedFacts,
    private readonly records: CallRepository,
    private readonly pairs: PairRepository,
    private readonly members: MemberRepository,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);
    // The lock call:initiate takes for each of its members: a call being set up with the member
    // either committed (and ends here) or waits and then finds no match of theirs.
    await this.records.lockMembers(manager, userId, userId);
    const ended = await this.records.endCallsOf(manager, userId, this.clock.now());
    // Their calls are counted like any other, without their id.
    await this.facts.publish(manager, ended, userId);
    await this.records.anonymiseRecordsOf(manager, userId);
    await this.pairs.forgetMember(manager, userId);
    await this.members.forget(manager, userId);
    await this.limits.forget(userId);
    if (ended.length > 0) {
      // The other member's call screen closes; sent once the erasure committed (a rollback sends nothing).
      const others = ended.map((c) => (c.caller_id === userId ? c.recipient_id : c.caller_id));
      afterTransaction(manager, () =>
        Promise.all(others.map((to) => this.notifier.push(to, 'call:ended', { from: userId }))),
      );
    }
    this.logger.info({ endedCalls: ended.length }, 'member erased from calls');
  }
}
