import { CallMessages } from '@mate/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isLiveCall, useCall } from '../../call/call-types';

/**
 * A history row's call-back: the chat's Video Call path (ChatScreen) for this member. Back to the
 * call when one with them is on; answers them when they are ringing us now (a call of our own
 * would be busy); else starts a video call and opens /call/{userId} once the server holds it. A
 * refused camera, or the server's refusal ('You can only call your matches', 'User is busy'),
 * stays on the history as `error`.
 */
export function useCallBack() {
  const call = useCall();
  const navigate = useNavigate();
  const [startingWith, setStartingWith] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const callBack = async (userId: string, name: string) => {
    const callPath = `/call/${encodeURIComponent(userId)}`;
    if (call.peerId === userId && isLiveCall(call.phase)) {
      void navigate(callPath);
      return;
    }
    const ringingFromThem = call.phase === 'incoming' && call.peerId === userId;
    setError(null);
    setStartingWith(userId);
    try {
      if (ringingFromThem) await call.answer();
      else await call.startCall(userId, name);
      void navigate(callPath);
    } catch (failure) {
      const fallback = ringingFromThem ? CallMessages.answerFailed : CallMessages.startFailed;
      setError(failure instanceof Error && failure.message ? failure.message : fallback);
    } finally {
      setStartingWith(null);
    }
  };

  return { callBack, startingWith, error };
}
