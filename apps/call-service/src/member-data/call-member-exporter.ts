import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CallsExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';

interface ExportRow {
  id: string;
  with_user_id: string;
  outgoing: boolean;
  status: string;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
}

const iso = (t: Date | null) => (t === null ? null : new Date(t).toISOString());

/**
 * Calls' part of a member's data export: every call the member made or received, newest first,
 * the other member by id only (no name: that is the other member's profile).
 */
@Injectable()
export class CallMemberExporter implements MemberExporter<CallsExportPart> {
  constructor(private readonly dataSource: DataSource) {}

  async exportMember(userId: string): Promise<CallsExportPart> {
    const rows: ExportRow[] = await this.dataSource.query(
      `SELECT id, CASE WHEN caller_id = $1::uuid THEN recipient_id ELSE caller_id END AS with_user_id,
              caller_id = $1::uuid AS outgoing, status, started_at, answered_at, ended_at, duration_seconds
         FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid
        ORDER BY started_at DESC, id DESC`,
      [userId],
    );
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
