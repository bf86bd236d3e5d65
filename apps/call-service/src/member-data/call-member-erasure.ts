import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { DELETED_MEMBER_NAME } from '@mate/contracts';
import { CLOCK, eraseMemberTraces, LOGGER, type Clock } from '@mate/server-kit';
import { CallEndedFacts } from '../call/call-ended-facts';
import { CallNotifier } from '../call/call-notifier';
import { CallsService, updatedRows } from '../call/calls.service';
import { afterTransaction } from '../call/after-transaction';
import { END_MEMBER_CALLS_SQL, MEMBER_LOCK_SQL, type EndedRow } from '../call/call.sql';

/** The `call_member` row of an anonymised member: no profile event can name it, none overwrites it. */
export const ANONYMISED_MEMBER_VERSION = 2_147_483_647;

/**
 * Records whose other member was deleted before (their side is an anonymous stand-in): nobody
 * keeps them any more, so they go, and their stand-ins with them. $1 member, $2 the stand-ins' version.
 */
const DROP_ORPHANED_SQL = `
WITH gone AS (
  DELETE FROM call_record r
   WHERE (r.caller_id = $1::uuid AND r.recipient_id IN (SELECT user_id FROM call_member WHERE version = $2))
      OR (r.recipient_id = $1::uuid AND r.caller_id IN (SELECT user_id FROM call_member WHERE version = $2))
  RETURNING CASE WHEN r.caller_id = $1::uuid THEN r.recipient_id ELSE r.caller_id END AS stand_in
)
DELETE FROM call_member WHERE version = $2 AND user_id IN (SELECT stand_in FROM gone)`;

/**
 * Every other record keeps the other member's side: the deleted member's id becomes a fresh
 * random one per record (two records cannot be linked), whose `call_member` row says
 * DELETED_MEMBER_NAME. $1 member, $2 name, $3 version.
 */
const ANONYMISE_RECORDS_SQL = `
WITH stand_ins AS (
  SELECT id, gen_random_uuid() AS stand_in FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid
), moved AS (
  UPDATE call_record r
     SET caller_id = CASE WHEN r.caller_id = $1::uuid THEN s.stand_in ELSE r.caller_id END,
         recipient_id = CASE WHEN r.recipient_id = $1::uuid THEN s.stand_in ELSE r.recipient_id END
    FROM stand_ins s WHERE r.id = s.id
  RETURNING s.stand_in
)
INSERT INTO call_member (user_id, name, version) SELECT stand_in, $2, $3 FROM moved`;

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
    private readonly calls: CallsService,
    private readonly notifier: CallNotifier,
    private readonly facts: CallEndedFacts,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);
    // The lock call:initiate takes for each of its members: a call being set up with the member
    // either committed (and ends here) or waits and then finds no match of theirs.
    await manager.query(MEMBER_LOCK_SQL, [userId, userId]);
    const ended = updatedRows<EndedRow>(await manager.query(END_MEMBER_CALLS_SQL, [userId, this.clock.now()]));
    // Their calls are counted like any other, without their id.
    await this.facts.publish(manager, ended, userId);
    await manager.query(DROP_ORPHANED_SQL, [userId, ANONYMISED_MEMBER_VERSION]);
    await manager.query(ANONYMISE_RECORDS_SQL, [userId, DELETED_MEMBER_NAME, ANONYMISED_MEMBER_VERSION]);
    await manager.query(
      `DELETE FROM call_ended_match WHERE match_id IN (SELECT match_id FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid)`,
      [userId],
    );
    await manager.query('DELETE FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    await manager.query('DELETE FROM call_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    await manager.query('DELETE FROM call_member WHERE user_id = $1::uuid', [userId]);
    await this.calls.forget(userId);
    if (ended.length > 0) {
      // The other member's call screen closes; sent once the erasure committed (a rollback sends nothing).
      const others = ended.map((c) => (c.caller_id === userId ? c.recipient_id : c.caller_id));
      afterTransaction(manager, () => Promise.all(others.map((to) => this.notifier.push(to, 'call:ended', { from: userId }))));
    }
    this.logger.info({ endedCalls: ended.length }, 'member erased from calls');
  }
}
