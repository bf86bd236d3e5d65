import { CallMessages, CallTexts } from '@mate/contracts';
import { Avatar, Button, Dialog, Icon } from '@mate/ui';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCall } from '../../call/call-types';
import { memberName } from '../../lib/member-name';
import { usePeerPicture } from './usePeerPicture';
import './incoming-call.css';

/**
 * Spec 000 §2 Incoming call overlay, over every signed-in screen while a call rings: 'Incoming
 * Video Call', '{name} is calling you...', Reject and Answer (focused first). Escape and the
 * backdrop do nothing: a stray key or tap must neither hang up on the caller nor hide a ringing
 * call; only the two buttons decide (an unanswered call ends by itself after 30 s).
 */
export function IncomingCallOverlay() {
  const call = useCall();
  const navigate = useNavigate();
  const answerRef = useRef<HTMLButtonElement>(null);
  const [answering, setAnswering] = useState(false);
  const ringing = call.phase === 'incoming';
  const name = memberName(call.peerName);
  const picture = usePeerPicture(ringing ? call.peerId : null);

  const answer = async () => {
    const callerId = call.peerId;
    if (!callerId) return;
    setAnswering(true);
    try {
      await call.answer();
      void navigate(`/call/${encodeURIComponent(callerId)}`);
    } catch (error) {
      // The provider has already rejected the call (spec 000 §8).
      window.alert(error instanceof Error ? error.message : CallMessages.answerFailed);
    } finally {
      setAnswering(false);
    }
  };

  return (
    <Dialog
      open={ringing}
      title={CallTexts.incomingTitle}
      description={CallTexts.incomingBody(name)}
      onClose={() => undefined}
      initialFocusRef={answerRef}
      className="incoming-call"
      footer={
        <>
          <Button
            variant="danger"
            icon={<Icon name="hang-up" size={20} />}
            onClick={call.reject}
            disabled={answering}
          >
            {CallTexts.reject}
          </Button>
          <Button
            ref={answerRef}
            className="incoming-call__answer"
            icon={<Icon name="video" size={20} />}
            loading={answering}
            onClick={() => void answer()}
          >
            {CallTexts.answer}
          </Button>
        </>
      }
    >
      <div className="incoming-call__caller">
        <span className="incoming-call__ring" aria-hidden="true" />
        <Avatar name={name} src={picture.src} srcSet={picture.srcSet} size="xl" />
      </div>
    </Dialog>
  );
}
