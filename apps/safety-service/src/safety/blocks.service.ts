import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BLOCK_REASON_MAX_LENGTH,
  BLOCKED_LIST_MAX,
  SafetyMessages,
  type BlockedUserDto,
  type UnblockResultDto,
} from '@mate/contracts';
import { badRequest, CLOCK, lockMembersAgainstErasure, notFound, OutboxService, PairGate, type Clock } from '@mate/server-kit';
import { MatchFromGate } from './match-from-gate';
import { MembersRepository } from './members.repository';
import { pairState, PairsRepository, withBlocker } from './pairs.repository';
import { SafetyRateLimiter } from './safety-rate-limits';
import { memberText } from './safety-text';

interface BlockListRow {
  id: string;
  blocked_id: string;
  created_at: Date;
  name: string | null;
  profile_picture: string | null;
}

const toBlockedUser = (r: BlockListRow): BlockedUserDto => ({
  id: r.id,
  blockedId: r.blocked_id,
  name: r.name,
  photo: r.profile_picture,
  createdAt: r.created_at.toISOString(),
});

/**
 * Blocks (spec 000 §4, issue 10). A block and an unblock change the pair's block state under the
 * pair's row lock and publish it whole (user.blocked / user.unblocked) in the same transaction;
 * a block also ends the pair's match. Every service applies the newest pair event it has seen.
 */
@Injectable()
export class BlocksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
    private readonly pairs: PairsRepository,
    private readonly outbox: OutboxService,
    private readonly limits: SafetyRateLimiter,
    private readonly gate: PairGate,
    private readonly fromGate: MatchFromGate,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Blocks `blockedId`; a repeated block answers the same block and publishes nothing. The answer
   * shows the blocked member as the pair last showed them (`pair.shown`, taken when the pair became
   * blocked), so it is the same whether or not they block the caller too (issue 24 item 4).
   *
   * After the commit and before the answer the pair gate closes at the pair's version (ADR 0024):
   * from the moment the block has answered, chat and calls refuse the pair, whatever their
   * projections have applied yet. A repeated block closes it again (its first answer may have been
   * the 503 of a failed gate write).
   */
  async block(blockerId: string, blockedId: string, reasonText: string | undefined): Promise<BlockedUserDto> {
    if (blockerId === blockedId) throw badRequest(SafetyMessages.blockSelf);
    const reason = memberText(reasonText, BLOCK_REASON_MAX_LENGTH, SafetyMessages.blockReasonTooLong);
    await this.limits.blockAction(blockerId);
    const member = await this.members.find(blockedId);
    if (!member) throw notFound(SafetyMessages.memberNotFound);
    const outcome = await this.dataSource.transaction(async (manager) => {
      // A member deleted since they were looked up is unknown: no block row may outlive the erasure.
      if (await lockMembersAgainstErasure(manager, [blockerId, blockedId])) throw notFound(SafetyMessages.memberNotFound);
      let pair = await this.pairs.lock(manager, blockerId, blockedId);
      // The block ends (endedMatchId) a match whose like answered before its match.created arrived (ADR 0029).
      if (!pair.matchId && pair.blockedBy.length === 0 && (await this.fromGate.record(manager, blockerId, blockedId))) {
        pair = await this.pairs.lock(manager, blockerId, blockedId);
      }
      // Already blocked (by the other member, or a repeated block): as the pair showed them then.
      const shown = pair.blockedBy.length > 0 && pair.shown ? pair.shown : await this.members.shownOf(manager, pair.userIds);
      const seen = shown[blockedId] ?? null;
      const answer = (row: { id: string; created_at: Date }) =>
        toBlockedUser({ ...row, blocked_id: blockedId, name: seen?.name ?? null, profile_picture: seen?.photo ?? null });
      const at = this.clock.now();
      const inserted: { id: string; created_at: Date }[] = await manager.query(
        `INSERT INTO block (id, blocker_id, blocked_id, reason, created_at) VALUES (gen_random_uuid(), $1, $2, $3, $4)
         ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING id, created_at`,
        [blockerId, blockedId, reason, at],
      );
      if (inserted.length === 0) {
        const [existing]: { id: string; created_at: Date }[] = await manager.query(
          'SELECT id, created_at FROM block WHERE blocker_id = $1 AND blocked_id = $2',
          [blockerId, blockedId],
        );
        return { block: answer(existing), version: await this.pairs.version(manager, pair) };
      }
      const blockedBy = withBlocker(pair.blockedBy, blockerId, true);
      await this.pairs.setBlockedBy(manager, pair, blockedBy, true, at, shown);
      const event = await this.outbox.publish(manager, 'user.blocked', {
        ...pairState(pair, blockedBy),
        blockerId,
        blockedId,
        endedMatchId: pair.matchId,
        blockedAt: at.toISOString(),
      });
      return { block: answer(inserted[0]), version: event.aggregateVersion ?? (await this.pairs.version(manager, pair)) };
    });
    await this.gate.close(blockerId, blockedId, outcome.version);
    return outcome.block;
  }

  /** Lifts the caller's block of `blockedId`; the match stays ended. */
  async unblock(blockerId: string, blockedId: string): Promise<UnblockResultDto> {
    if (blockerId === blockedId) return { unblocked: false };
    await this.limits.blockAction(blockerId);
    const exists: unknown[] = await this.dataSource.query('SELECT 1 FROM block WHERE blocker_id = $1 AND blocked_id = $2', [
      blockerId,
      blockedId,
    ]);
    if (exists.length === 0) return { unblocked: false };
    return this.dataSource.transaction(async (manager) => {
      // The erasure took the block away already; locking would write the pair row back.
      if (await lockMembersAgainstErasure(manager, [blockerId, blockedId])) return { unblocked: false };
      const pair = await this.pairs.lock(manager, blockerId, blockedId);
      // TypeORM answers a DELETE with [rows, count].
      const [deleted]: [unknown[], number] = await manager.query(
        'DELETE FROM block WHERE blocker_id = $1 AND blocked_id = $2 RETURNING id',
        [blockerId, blockedId],
      );
      if (deleted.length === 0) return { unblocked: false };
      const at = this.clock.now();
      const blockedBy = withBlocker(pair.blockedBy, blockerId, false);
      await this.pairs.setBlockedBy(manager, pair, blockedBy, false, at, pair.shown);
      await this.outbox.publish(manager, 'user.unblocked', {
        ...pairState(pair, blockedBy),
        blockerId,
        blockedId,
        unblockedAt: at.toISOString(),
      });
      return { unblocked: true };
    });
  }

  /**
   * The caller's blocks, newest first, at most BLOCKED_LIST_MAX, each member as the pair showed them
   * when it became blocked (`pair.shown`): the list neither follows their profile afterwards nor
   * changes when they block the caller back (profile-service refuses them to the caller either
   * way, 404), so it tells nothing of what the other member did (issue 24 item 4).
   */
  async blockedUsers(blockerId: string): Promise<BlockedUserDto[]> {
    const rows: BlockListRow[] = await this.dataSource.query(
      `SELECT b.id, b.blocked_id, b.created_at,
              p.shown -> b.blocked_id::text ->> 'name' AS name, p.shown -> b.blocked_id::text ->> 'photo' AS profile_picture
         FROM block b
         LEFT JOIN pair p ON p.pair_id = least(b.blocker_id, b.blocked_id)::text || ':' || greatest(b.blocker_id, b.blocked_id)::text
        WHERE b.blocker_id = $1
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT $2`,
      [blockerId, BLOCKED_LIST_MAX],
    );
    return rows.map(toBlockedUser);
  }
}
