import { CallTexts, type CallHistoryStatus, type CallRecordDto, type CallStatus } from '@mate/contracts';
import { memberName } from '../../lib/member-name';

/**
 * Spec 000 §2 filter buttons, in their order. The server filters the whole history (issue 25:
 * a filter of the loaded page alone hid calls on other pages); 'all' asks without a status.
 */
export type CallFilter = 'all' | CallHistoryStatus;
export const CALL_FILTERS: ReadonlyArray<{ value: CallFilter; label: string }> = [
  { value: 'all', label: CallTexts.filters.all },
  { value: 'completed', label: CallTexts.filters.completed },
  { value: 'missed', label: CallTexts.filters.missed },
  { value: 'rejected', label: CallTexts.filters.rejected },
  { value: 'failed', label: CallTexts.filters.failed },
];

/** The status the server is asked for (none for All Calls). */
export function statusOfFilter(filter: CallFilter): CallHistoryStatus | undefined {
  return filter === 'all' ? undefined : filter;
}

export interface CallRowView {
  id: string;
  /** The other member of the call. */
  otherId: string;
  otherName: string;
  /** Their picture as stored (a path the photo client turns into a URL); null: the initial shows. */
  otherPicture: string | null;
  /** The two may call each other now (server's word; absent from an older server: assumed yes). */
  callable: boolean;
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
    otherPicture: (outgoing ? call.recipientProfilePicture : call.callerProfilePicture) ?? null,
    callable: call.callable !== false,
    direction: outgoing ? 'outgoing' : 'incoming',
    status: call.status,
    startedAt: call.startedAt,
    durationSeconds: call.durationSeconds,
  };
}
