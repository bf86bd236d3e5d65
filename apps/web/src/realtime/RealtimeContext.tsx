import type { SocketClient } from '@mate/api-client';
import type { SessionEndReason } from '@mate/contracts';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';

/** Makes the socket client for one signed-in session (main.tsx: `createSocketClient` on the gateway). */
export type SocketClientFactory = (session: {
  getToken: () => string | null;
  onSessionEnded: (reason: SessionEndReason) => void;
}) => SocketClient;

export interface RealtimeContextValue {
  /** The session's socket client, or null while signed out (chat and call screens use it). */
  client: SocketClient | null;
  connected: boolean;
}

const RealtimeContext = createContext<RealtimeContextValue>({ client: null, connected: false });

/**
 * The realtime channel's lifecycle (spec 000 §4): connected once the visitor is signed in (the
 * stored token checked with the server) with a verified address, disconnected on sign-out. When the server ends the
 * session behind the socket (logout on another device, revoked), the app signs out here too.
 * Without a factory (tests of other screens) there is no channel.
 */
export function RealtimeProvider({ createClient, children }: { createClient?: SocketClientFactory; children: ReactNode }) {
  const { token, user, profile, initializing, clearSession } = useAuth();
  const [value, setValue] = useState<RealtimeContextValue>({ client: null, connected: false });
  const signedIn = Boolean(token && user && !initializing);
  // The gateway refuses the handshake of an unverified account (a member feature, issue 7), and
  // a refused handshake is not retried: connect once the address is verified, which the profile
  // learns without a new sign-in (verified on another device, then the prompt's refresh).
  const verified = profile ? profile.isVerified : user?.isVerified === true;

  useEffect(() => {
    if (!createClient || !signedIn || !token || !verified) return;
    const client = createClient({ getToken: () => token, onSessionEnded: () => clearSession() });
    const update = () => setValue({ client, connected: client.socket.connected });
    client.socket.on('connect', update);
    client.socket.on('disconnect', update);
    update();
    client.connect();
    return () => {
      client.socket.off('connect', update);
      client.socket.off('disconnect', update);
      client.disconnect();
      setValue({ client: null, connected: false });
    };
  }, [createClient, signedIn, verified, token, clearSession]);

  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeContextValue {
  return useContext(RealtimeContext);
}
