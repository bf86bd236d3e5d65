import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BLOCK_REASON_MAX_LENGTH,
  BLOCKED_LIST_MAX,
  SafetyErrorCode,
  SafetyMessages,
  type BlockedUserDto,
  type UnblockResultDto,
} from '@mate/contracts';
import { badRequest, CLOCK, lockMembersAgainstErasure, notFound, OutboxService, PairGate, type Clock } from '@mate/server-kit';
import { BlocksRepository, type BlockListRow } from './blocks.repository';
import { MatchFromGate } from './match-from-gate';
import { MembersRepository } from './members.repository';
import { pairState, PairsRepository, withBlocker } from './pairs.repository';
import { memberText } from './safety-text';

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
    private readonly blocks: BlocksRepository,
    private readonly members: MembersRepository,
    private readonly pairs: PairsRepository,
    private readonly outbox: OutboxService,
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
    if (blockerId === blockedId) throw badRequest(SafetyMessages.blockSelf, SafetyErrorCode.BlockSelf);
    const reason = memberText(reasonText, BLOCK_REASON_MAX_LENGTH, SafetyMessages.blockReasonTooLong);
    const member = await this.members.find(blockedId);
    if (!member) throw notFound(SafetyMessages.memberNotFound, SafetyErrorCode.MemberNotFound);
    const outcome = await this.dataSource.transaction(async (manager) => {
      // A member deleted since they were looked up is unknown: no block row may outlive the erasure.
      if (await lockMembersAgainstErasure(manager, [blockerId, blockedId])) {
        throw notFound(SafetyMessages.memberNotFound, SafetyErrorCode.MemberNotFound);
      }
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
      const inserted = await this.blocks.insert(manager, blockerId, blockedId, reason, at);
      if (!inserted) {
        const existing = await this.blocks.find(manager, blockerId, blockedId);
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
      return { block: answer(inserted), version: event.aggregateVersion ?? (await this.pairs.version(manager, pair)) };
    });
    await this.gate.close(blockerId, blockedId, outcome.version);
    return outcome.block;
  }

  /** Lifts the caller's block of `blockedId`; the match stays ended. */
  async unblock(blockerId: string, blockedId: string): Promise<UnblockResultDto> {
    if (blockerId === blockedId) return { unblocked: false };
    if (!(await this.blocks.exists(blockerId, blockedId))) return { unblocked: false };
    return this.dataSource.transaction(async (manager) => {
      // The erasure took the block away already; locking would write the pair row back.
      if (await lockMembersAgainstErasure(manager, [blockerId, blockedId])) return { unblocked: false };
      const pair = await this.pairs.lock(manager, blockerId, blockedId);
      if (!(await this.blocks.delete(manager, blockerId, blockedId))) return { unblocked: false };
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
    const rows = await this.blocks.listOf(blockerId, BLOCKED_LIST_MAX);
    return rows.map(toBlockedUser);
  }
}
