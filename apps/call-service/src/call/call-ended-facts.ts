import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CallEndedPayload } from '@mate/contracts';
import { OutboxService } from '@mate/server-kit';
import type { EndedRow } from './call.repository';

const FINAL_STATUSES: readonly CallEndedPayload['status'][] = ['completed', 'missed', 'rejected', 'failed'];

/**
 * `call.ended` (issue 13, analytics counts calls): written in the transaction whose conditional
 * UPDATE (or busy INSERT) moved the call to its final status. A final status never changes (a
 * trigger enforces it) and only the statement that made it final answers the row, so each call
 * is published exactly once, whichever of hang-up, reject, sweeper, pair event, suspension or
 * erasure ended it.
 */
@Injectable()
export class CallEndedFacts {
  constructor(private readonly outbox: OutboxService) {}

  /**
   * One fact per ended call. `erasedMemberId`: the calls end because this member is being erased,
   * so the fact names a fresh random id in their place (nothing published names them afterwards).
   */
  async publish(manager: EntityManager, calls: readonly EndedRow[], erasedMemberId?: string): Promise<void> {
    for (const call of calls) {
      const status = call.status as CallEndedPayload['status'];
      if (!FINAL_STATUSES.includes(status)) continue;
      const side = (id: string) =>
        erasedMemberId !== undefined && id === erasedMemberId ? randomUUID() : id;
      await this.outbox.publish(manager, 'call.ended', {
        callId: call.id,
        callerId: side(call.caller_id),
        calleeId: side(call.recipient_id),
        status,
        durationSeconds: call.duration_seconds ?? 0,
        endedAt: new Date(call.ended_at).toISOString(),
      });
    }
  }
}
