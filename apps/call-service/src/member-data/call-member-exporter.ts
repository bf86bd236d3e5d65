import { Injectable } from '@nestjs/common';
import type { CallsExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { CallRepository } from '../call/call.repository';

const iso = (t: Date | null) => (t === null ? null : new Date(t).toISOString());

/**
 * Calls' part of a member's data export: every call the member made or received, newest first,
 * the other member by id only (no name: that is the other member's profile).
 */
@Injectable()
export class CallMemberExporter implements MemberExporter<CallsExportPart> {
  constructor(private readonly records: CallRepository) {}

  async exportMember(userId: string): Promise<CallsExportPart> {
    const rows = await this.records.exportRowsOf(userId);
    return {
      calls: rows.map((r) => ({
        id: r.id,
        withUserId: r.with_user_id,
        direction: r.outgoing ? 'outgoing' : 'incoming',
        status: r.status,
        startedAt: new Date(r.started_at).toISOString(),
        answeredAt: iso(r.answered_at),
        endedAt: iso(r.ended_at),
        durationSeconds: r.duration_seconds,
      })),
    };
  }
}
