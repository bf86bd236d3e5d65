import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { BlocksRepository } from '../safety/blocks.repository';
import { MembersRepository } from '../safety/members.repository';
import { PairsRepository } from '../safety/pairs.repository';
import { ReportsRepository } from '../safety/reports.repository';
import { SafetyRateLimiter } from '../safety/safety-rate-limits';

/**
 * `user.deleted` in safety (README "Member data", docs/adr/0016-member-data.md), one transaction,
 * idempotent: blocks by and of the member and their pair rows go; reports they made and reports
 * about them stay for the moderators, anonymised; their profile projection, the kit's traces and
 * their rate-limit keys go.
 */
@Injectable()
export class SafetyMemberErasure {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly limits: SafetyRateLimiter,
    private readonly pairs: PairsRepository,
    private readonly reports: ReportsRepository,
    private readonly blocks: BlocksRepository,
    private readonly members: MembersRepository,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);
    // Every block, unblock, unmatch and report takes the pair's row lock first: wait for those in flight.
    await this.pairs.lockAllOf(manager, userId);
    // The member's pending snapshots would ask chat about a pair that no longer exists there.
    await this.reports.closePendingSnapshotsOf(manager, userId);
    await this.reports.anonymiseReportsMadeBy(manager, userId);
    await this.reports.anonymiseReportsAbout(manager, userId);
    await this.blocks.eraseMember(manager, userId);
    await this.pairs.eraseMember(manager, userId);
    await this.members.eraseMember(manager, userId);
    await this.limits.forget(userId);
    this.logger.info('member erased from safety');
  }
}
