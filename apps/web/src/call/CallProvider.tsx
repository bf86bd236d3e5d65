import { SocketMessages } from '@mate/contracts';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import { useAuth } from '../auth/AuthContext';
import { useRealtime } from '../realtime/RealtimeContext';
import { CallEngine } from './call-engine';
import { CallContext, IDLE_CALL_STATE, type CallContextValue, type CallDevices, type CallState } from './call-types';

const noSocket = () => Promise.reject(new Error(SocketMessages.notConnected));
const nothing = () => undefined;

/**
 * The live call of spec 000 §4 for the signed-in session: one CallEngine per realtime client,
 * made when the socket client exists and disposed (hanging up, every track stopped) on sign-out or
 * unmount. A socket that drops mid-call keeps the call: the server ends it only after 15 s.
 */
export function CallProvider({ devices, children }: { devices: CallDevices; children: ReactNode }) {
  const { client } = useRealtime();
  const api = useApi();
  const { user, profile } = useAuth();
  const name = profile?.name || user?.name || '';
  const selfName = useRef(name);
  useEffect(() => {
    selfName.current = name;
  }, [name]);
  const [state, setState] = useState<CallState>(IDLE_CALL_STATE);
  const [engine, setEngine] = useState<CallEngine | null>(null);

  useEffect(() => {
    if (!client) return;
    const created = new CallEngine({
      socket: client,
      calls: api.calls,
      devices,
      selfName: () => selfName.current,
      onChange: setState,
    });
    setEngine(created);
    return () => {
      created.dispose();
      setEngine(null);
      setState(IDLE_CALL_STATE);
    };
  }, [client, api, devices]);

  const value = useMemo<CallContextValue>(
    () => ({
      ...state,
      startCall: engine ? engine.startCall : noSocket,
      answer: engine ? engine.answer : noSocket,
      reject: engine ? engine.reject : nothing,
      end: engine ? engine.end : nothing,
      toggleMute: engine ? engine.toggleMute : nothing,
      toggleCamera: engine ? engine.toggleCamera : nothing,
      toggleSubtitles: engine ? engine.toggleSubtitles : nothing,
    }),
    [state, engine],
  );

  return <CallContext.Provider value={value}>{children}</CallContext.Provider>;
}
