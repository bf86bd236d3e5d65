import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BLOCK_REASON_MAX_LENGTH,
  BLOCKED_LIST_MAX,
  SafetyMessages,
  type BlockedUserDto,
  type UnblockResultDto,
} from '@mate/contracts';
import { badRequest, CLOCK, lockMembersAgainstErasure, notFound, OutboxService, type Clock } from '@mate/server-kit';
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
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Blocks `blockedId`; a repeated block answers the same block and publishes nothing. */
  async block(blockerId: string, blockedId: string, reasonText: string | undefined): Promise<BlockedUserDto> {
    if (blockerId === blockedId) throw badRequest(SafetyMessages.blockSelf);
    const reason = memberText(reasonText, BLOCK_REASON_MAX_LENGTH, SafetyMessages.blockReasonTooLong);
    await this.limits.blockAction(blockerId);
    const member = await this.members.find(blockedId);
    if (!member) throw notFound(SafetyMessages.memberNotFound);
    return this.dataSource.transaction(async (manager) => {
      // A member deleted since they were looked up is unknown: no block row may outlive the erasure.
      if (await lockMembersAgainstErasure(manager, [blockerId, blockedId])) throw notFound(SafetyMessages.memberNotFound);
      const pair = await this.pairs.lock(manager, blockerId, blockedId);
      // As in the blocked list: nothing of a member who blocks the caller too.
      const blocksCaller = pair.blockedBy.includes(blockedId);
      const shown = { name: blocksCaller ? null : member.name, profile_picture: blocksCaller ? null : member.photo };
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
        return toBlockedUser({ ...existing, blocked_id: blockedId, ...shown });
      }
      const blockedBy = withBlocker(pair.blockedBy, blockerId, true);
      await this.pairs.setBlockedBy(manager, pair, blockedBy, true, at);
      await this.outbox.publish(manager, 'user.blocked', {
        ...pairState(pair, blockedBy),
        blockerId,
        blockedId,
        endedMatchId: pair.matchId,
        blockedAt: at.toISOString(),
      });
      return toBlockedUser({ ...inserted[0], blocked_id: blockedId, ...shown });
    });
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
      await this.pairs.setBlockedBy(manager, pair, blockedBy, false, at);
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
   * The caller's blocks, newest first, at most BLOCKED_LIST_MAX. A member who blocks the caller too
   * is listed without name and photo ('Unknown User'): profile-service refuses them to the caller
   * (404), and blocking back must not become a way to watch the blocker's profile.
   */
  async blockedUsers(blockerId: string): Promise<BlockedUserDto[]> {
    const rows: BlockListRow[] = await this.dataSource.query(
      `SELECT b.id, b.blocked_id, b.created_at,
              CASE WHEN r.id IS NULL THEN m.name END AS name, CASE WHEN r.id IS NULL THEN m.profile_picture END AS profile_picture
         FROM block b
         LEFT JOIN safety_member m ON m.user_id = b.blocked_id
         LEFT JOIN block r ON r.blocker_id = b.blocked_id AND r.blocked_id = b.blocker_id
        WHERE b.blocker_id = $1
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT $2`,
      [blockerId, BLOCKED_LIST_MAX],
    );
    return rows.map(toBlockedUser);
  }
}
