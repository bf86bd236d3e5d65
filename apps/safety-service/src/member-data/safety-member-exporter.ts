import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SafetyExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';

/**
 * Safety's part of a member's data export: the blocks, reports and unmatches the member made,
 * newest first. A report keeps its details text (the member's own words) but not what the
 * moderators hold as evidence about the other member (their profile and messages snapshot).
 */
@Injectable()
export class SafetyMemberExporter implements MemberExporter<SafetyExportPart> {
  constructor(private readonly dataSource: DataSource) {}

  async exportMember(userId: string): Promise<SafetyExportPart> {
    const [blocks, reports, unmatches]: [
      { blocked_id: string; created_at: Date }[],
      { id: string; reported_id: string; reason: string; details: string | null; status: string; created_at: Date }[],
      { other_id: string; unmatched_at: Date }[],
    ] = await Promise.all([
      this.dataSource.query('SELECT blocked_id, created_at FROM block WHERE blocker_id = $1 ORDER BY created_at DESC, id DESC', [userId]),
      this.dataSource.query(
        'SELECT id, reported_id, reason, details, status, created_at FROM report WHERE reporter_id = $1 ORDER BY created_at DESC, id DESC',
        [userId],
      ),
      this.dataSource.query(
        `SELECT CASE WHEN member_a = $1::uuid THEN member_b ELSE member_a END AS other_id, unmatched_at
           FROM pair WHERE unmatched_by = $1::uuid AND (member_a = $1::uuid OR member_b = $1::uuid)
          ORDER BY unmatched_at DESC, pair_id`,
        [userId],
      ),
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
