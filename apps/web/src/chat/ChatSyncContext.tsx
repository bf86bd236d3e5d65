import { ChatSync, type ChatSyncOptions, type PendingMessage } from '@mate/api-client';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import { useAuth } from '../auth/AuthContext';
import { useRealtime } from '../realtime/RealtimeContext';
import { localPendingStore } from './pending-store';
import { useLiveConversations } from './useConversations';

export type ChatSyncFactory = (options: ChatSyncOptions) => ChatSync;

const createChatSync: ChatSyncFactory = (options) => new ChatSync(options);

const ChatSyncContext = createContext<ChatSync | null>(null);

/**
 * One chat engine per signed-in session (issue 9): made from the session's realtime client, with
 * unsent messages kept in localStorage under the member's id, stopped on sign-out. Screens read it
 * through the hooks of `useChat.ts`. Without a realtime client (signed out, tests of other screens)
 * there is none.
 */
export function ChatSyncProvider({
  factory = createChatSync,
  children,
}: {
  factory?: ChatSyncFactory;
  children: ReactNode;
}) {
  const { client } = useRealtime();
  const { user } = useAuth();
  const api = useApi();
  const selfId = user?.id ?? null;
  const [sync, setSync] = useState<ChatSync | null>(null);

  useEffect(() => {
    if (!client || !selfId) return;
    const engine = factory({
      socket: client,
      api: api.chat,
      selfId,
      pendingStore: localPendingStore<PendingMessage>(selfId),
    });
    engine.start();
    setSync(engine);
    // A tab coming back to the front may have slept through pushes (phones freeze background
    // tabs without closing the socket): catch up as on a reconnect.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void engine.resync();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      engine.stop();
      setSync(null);
    };
  }, [client, selfId, api, factory]);

  useLiveConversations(client, selfId);

  return <ChatSyncContext.Provider value={sync}>{children}</ChatSyncContext.Provider>;
}

/** The session's chat engine, or null while there is no realtime channel. */
export function useChatSync(): ChatSync | null {
  return useContext(ChatSyncContext);
}
