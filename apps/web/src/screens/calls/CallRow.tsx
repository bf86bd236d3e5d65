import { CALL_STATUS_LABELS, formatCallTimer, type CallStatus } from '@mate/contracts';
import { Avatar, Badge, Icon, type BadgeProps } from '@mate/ui';
import { formatTimestamp } from '../../lib/relative-time';
import type { CallRowView } from './call-history';

const STATUS_TONE: Record<CallStatus, NonNullable<BadgeProps['tone']>> = {
  completed: 'success',
  in_progress: 'accent',
  missed: 'warning',
  rejected: 'danger',
  failed: 'danger',
};

/** One call of the history: the other member, who called, the status, when and how long (mm:ss). */
export function CallRow({ call }: { call: CallRowView }) {
  const outgoing = call.direction === 'outgoing';
  return (
    <li className="call-row" aria-label={`Call with ${call.otherName}`}>
      <Avatar name={call.otherName} size="md" />
      <div className="call-row__body">
        <span className="call-row__name">{call.otherName}</span>
        <span className="call-row__meta">
          <span className="call-row__direction">
            <Icon name={outgoing ? 'arrow-right' : 'arrow-left'} size={14} />
            {outgoing ? 'Outgoing' : 'Incoming'}
          </span>
          <time dateTime={call.startedAt}>{formatTimestamp(call.startedAt)}</time>
        </span>
      </div>
      <div className="call-row__end">
        <Badge tone={STATUS_TONE[call.status]}>{CALL_STATUS_LABELS[call.status]}</Badge>
        <span className="call-row__duration">
          <span className="mate-visually-hidden">Duration </span>
          {call.durationSeconds === null ? '--:--' : formatCallTimer(call.durationSeconds)}
        </span>
      </div>
    </li>
  );
}
