import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SafetyExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { BlocksRepository } from '../safety/blocks.repository';
import { PairsRepository } from '../safety/pairs.repository';
import { ReportsRepository } from '../safety/reports.repository';

/**
 * Safety's part of a member's data export: the blocks, reports and unmatches the member made,
 * newest first. A report keeps its details text (the member's own words) but not what the
 * moderators hold as evidence about the other member (their profile and messages snapshot).
 */
@Injectable()
export class SafetyMemberExporter implements MemberExporter<SafetyExportPart> {
  constructor(
    private readonly blocks: BlocksRepository,
    private readonly reports: ReportsRepository,
    private readonly pairs: PairsRepository,
    private readonly dataSource: DataSource,
  ) {}

  async exportMember(userId: string): Promise<SafetyExportPart> {
    const [blocks, reports, unmatches] = await Promise.all([
      this.blocks.madeBy(userId),
      this.reports.madeBy(userId),
      this.pairs.unmatchesMadeBy(this.dataSource.manager, userId),
    ]);
    return {
      blocks: blocks.map((b) => ({ userId: b.blocked_id, createdAt: b.created_at.toISOString() })),
      reports: reports.map((r) => ({
        id: r.id,
        reportedUserId: r.reported_id,
        reason: r.reason,
        details: r.details,
        status: r.status,
        createdAt: r.created_at.toISOString(),
      })),
      unmatches: unmatches.map((u) => ({ userId: u.other_id, endedAt: u.unmatched_at.toISOString() })),
    };
  }
}
