import { CallTexts } from '@mate/contracts';
import { Button, buttonClassName, Icon } from '@mate/ui';
import { Link, useMatch } from 'react-router-dom';
import { isLiveCall, useCall } from '../../call/call-types';
import { memberName } from '../../lib/member-name';
import './active-call-bar.css';

/**
 * While a call is live and the member is on another screen (browser back, a link): a small bar
 * over the shell saying so, with the way back to the call and a hang-up, so a call never runs
 * unseen. Its button is 'Hang up', never 'End call' (the call screen's own button).
 */
export function ActiveCallBar() {
  const call = useCall();
  const onCallScreen = useMatch('/call/:userId')?.params.userId;
  if (!isLiveCall(call.phase) || !call.peerId || onCallScreen === call.peerId) return null;

  const name = memberName(call.peerName);
  const status = call.phase === 'calling' ? CallTexts.calling(name) : CallTexts.inCall(name);
  return (
    <section className="active-call-bar" aria-label="Ongoing call">
      <span className="active-call-bar__status" role="status">
        <Icon name="video" size={18} />
        {status}
      </span>
      <span className="active-call-bar__actions">
        <Link
          to={`/call/${encodeURIComponent(call.peerId)}`}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Return to call
        </Link>
        <Button variant="danger" icon={<Icon name="hang-up" size={18} />} onClick={call.end}>
          Hang up
        </Button>
      </span>
    </section>
  );
}
