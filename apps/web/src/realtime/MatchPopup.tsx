import type { NewMatchPayload } from '@mate/contracts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useRecordMatch } from '../push/PushContext';
import { MatchDialog, type MatchedMember } from './MatchDialog';
import { useRealtime } from './RealtimeContext';

export interface MatchPopupValue {
  /** Opens 'It's a Match!' for this member, once per member while the app is open. */
  showMatch: (member: MatchedMember) => void;
  /** Whether the popup is open (Discover's arrow keys must not swipe behind it). */
  open: boolean;
}

const MatchPopupContext = createContext<MatchPopupValue>({ showMatch: () => undefined, open: false });

/**
 * The match popup for the whole signed-in app. Discover opens it when a like answers
 * `matched`; the `new_match` socket event opens it for the other member of a mutual like,
 * wherever they are in the app. Both sides of one match reach the liker (the answer and the
 * event), so a member already shown is not shown again; matches arriving together wait their turn.
 */
export function MatchPopupProvider({ children }: { children: ReactNode }) {
  const { client } = useRealtime();
  const navigate = useNavigate();
  const [waiting, setWaiting] = useState<MatchedMember[]>([]);
  const shown = useRef(new Set<string>());
  const recordMatch = useRecordMatch();

  const showMatch = useCallback((member: MatchedMember) => {
    // The notification prompt keeps away for a minute after a match (NotificationPrompt).
    recordMatch();
    if (shown.current.has(member.id)) return;
    shown.current.add(member.id);
    setWaiting((current) => [...current, member]);
  }, [recordMatch]);

  useEffect(() => {
    if (!client) return;
    const onNewMatch = (match: NewMatchPayload) => showMatch(match.user);
    client.socket.on('new_match', onNewMatch);
    return () => {
      client.socket.off('new_match', onNewMatch);
    };
  }, [client, showMatch]);

  const close = useCallback(() => setWaiting((current) => current.slice(1)), []);
  const sendMessage = useCallback(
    (member: MatchedMember) => {
      close();
      void navigate(`/chat/${encodeURIComponent(member.id)}`);
    },
    [close, navigate],
  );

  const open = waiting.length > 0;
  const value = useMemo(() => ({ showMatch, open }), [showMatch, open]);
  return (
    <MatchPopupContext.Provider value={value}>
      {children}
      <MatchDialog member={waiting[0] ?? null} onSendMessage={sendMessage} onKeepSwiping={close} />
    </MatchPopupContext.Provider>
  );
}

export function useMatchPopup(): MatchPopupValue {
  return useContext(MatchPopupContext);
}
