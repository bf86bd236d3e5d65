import { CALL_STATUS_LABELS, CallTexts, formatCallTimer, type CallStatus } from '@mate/contracts';
import { Avatar, Badge, Button, Icon, type BadgeProps } from '@mate/ui';
import { formatTimestamp } from '../../lib/relative-time';
import { usePhotoUrl } from '../../profile/usePhotos';
import type { CallRowView } from './call-history';

const STATUS_TONE: Record<CallStatus, NonNullable<BadgeProps['tone']>> = {
  completed: 'success',
  in_progress: 'accent',
  missed: 'warning',
  rejected: 'danger',
  failed: 'danger',
};

export interface CallRowProps {
  call: CallRowView;
  /** Starts a video call with the other member; absent: no call-back button. */
  onCallBack?: (userId: string, name: string) => void;
  /** A call-back is being set up (from this row or another): one press starts one call. */
  callBackBusy?: boolean;
  /** This row's call-back is the one being set up. */
  callingBack?: boolean;
  /** `lazy` for a row below the first screen. */
  pictureLoading?: 'lazy';
}

/**
 * One call of the history: the other member (picture or initial, as in Messages), who called, the
 * status, when and how long (mm:ss), and a call-back button while the two may still call.
 */
export function CallRow({ call, onCallBack, callBackBusy = false, callingBack = false, pictureLoading }: CallRowProps) {
  const photoUrl = usePhotoUrl();
  const outgoing = call.direction === 'outgoing';
  return (
    <li className="call-row" aria-label={`Call with ${call.otherName}`}>
      <Avatar name={call.otherName} src={photoUrl(call.otherPicture, 'thumb')} size="md" loading={pictureLoading} />
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
      {onCallBack && call.callable && (
        <Button
          variant="secondary"
          className="call-row__call-back"
          icon={<Icon name="video" size={18} />}
          aria-label={CallTexts.callBack(call.otherName)}
          title={CallTexts.callBack(call.otherName)}
          loading={callingBack}
          disabled={callBackBusy && !callingBack}
          onClick={() => onCallBack(call.otherId, call.otherName)}
        />
      )}
    </li>
  );
}
