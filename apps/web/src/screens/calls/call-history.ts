import { CallTexts, type CallRecordDto, type CallStatus } from '@mate/contracts';
import { memberName } from '../../lib/member-name';

/** Spec 000 §2 filter buttons, in their order; filtering is done in the browser (§7). */
export type CallFilter = 'all' | Exclude<CallStatus, 'in_progress'>;
export const CALL_FILTERS: ReadonlyArray<{ value: CallFilter; label: string }> = [
  { value: 'all', label: CallTexts.filters.all },
  { value: 'completed', label: CallTexts.filters.completed },
  { value: 'missed', label: CallTexts.filters.missed },
  { value: 'rejected', label: CallTexts.filters.rejected },
  { value: 'failed', label: CallTexts.filters.failed },
];

export function filterCalls(calls: readonly CallRecordDto[], filter: CallFilter): CallRecordDto[] {
  return filter === 'all' ? [...calls] : calls.filter((call) => call.status === filter);
}

export interface CallRowView {
  id: string;
  /** The other member of the call. */
  otherId: string;
  otherName: string;
  direction: 'outgoing' | 'incoming';
  status: CallStatus;
  startedAt: string;
  durationSeconds: number | null;
}

/** How a record reads for the member looking at it: who the other one was and who called. */
export function callRowView(call: CallRecordDto, selfId: string | undefined): CallRowView {
  const outgoing = call.callerId === selfId;
  return {
    id: call.id,
    otherId: outgoing ? call.recipientId : call.callerId,
    otherName: memberName(outgoing ? call.recipientName : call.callerName),
    direction: outgoing ? 'outgoing' : 'incoming',
    status: call.status,
    startedAt: call.startedAt,
    durationSeconds: call.durationSeconds,
  };
}
