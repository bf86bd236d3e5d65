import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import {
  ErrorCode,
  SOCKET_ACK_TIMEOUT,
  SOCKET_CONNECT_TIMEOUT,
  SOCKET_PATH,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY,
  SOCKET_RECONNECTION_DELAY_MAX,
  SocketMessages,
  isSocketError,
  type ClientEventName,
  type ClientEventPayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SessionEndReason,
} from '@mate/contracts';

export type MateSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What an event's acknowledgement carries when it succeeded. */
export type SocketResult<E extends ClientEventName> = Parameters<
  NonNullable<Parameters<ClientToServerEvents[E]>[1]>
>[0] extends infer A
  ? Exclude<A, { error: string }>
  : never;

/** An event the server answered with `{ error }`, or that got no answer. */
export class SocketError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SocketError';
  }
}

export interface SocketClientConfig {
  /** The gateway's origin; '' for the page's own origin. */
  baseUrl?: string;
  /** Read on every (re)connection, so a new sign-in is used without a new client. */
  getToken: () => string | null | undefined;
  /**
   * The server ended the session behind the socket (logout elsewhere, revoked, expired): the app
   * signs out. The client does not reconnect after it.
   */
  onSessionEnded?: (reason: SessionEndReason) => void;
  /** Settings for tests (e.g. `transports`); the spec's values are the defaults. */
  options?: Partial<ManagerOptions & SocketOptions>;
}

export interface SocketClient {
  readonly socket: MateSocket;
  connect(): void;
  disconnect(): void;
  /** Emits a client event and resolves with its acknowledgement; rejects with a `SocketError`. */
  request<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): Promise<SocketResult<E>>;
}

/** Spec 000 §7: reconnection 1 s to 5 s, 10 attempts, 20 s timeout, WebSocket with polling fallback. */
export const SOCKET_CLIENT_OPTIONS = {
  path: SOCKET_PATH,
  reconnection: true,
  reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
  reconnectionDelay: SOCKET_RECONNECTION_DELAY,
  reconnectionDelayMax: SOCKET_RECONNECTION_DELAY_MAX,
  timeout: SOCKET_CONNECT_TIMEOUT,
  transports: ['websocket', 'polling'],
  // Falls back to long-polling when WebSocket cannot get through (a proxy that refuses upgrades).
  tryAllTransports: true,
  autoConnect: false,
} satisfies Partial<ManagerOptions & SocketOptions>;

/**
 * The typed socket.io client of the realtime channel. It sends the bearer token in the handshake's
 * `auth` (never in the URL, where access logs would keep it). After a server-initiated disconnect
 * it reconnects (spec 000 §7) unless the server said the session ended (`session_revoked`, or a
 * handshake refused with SESSION_EXPIRED): then it stays down and calls `onSessionEnded`. A
 * handshake refused because the gateway is unavailable or busy is tried again until it succeeds.
 */
export function createSocketClient({
  baseUrl = '',
  getToken,
  onSessionEnded,
  options = {},
}: SocketClientConfig): SocketClient {
  const socket: MateSocket = io(baseUrl || undefined, {
    ...SOCKET_CLIENT_OPTIONS,
    ...options,
    auth: (send) => send({ token: getToken() ?? '' }),
  });
  let sessionEnded = false;
  /** The app asked to be connected (connect() until disconnect()). */
  let wanted = false;
  let refusedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const cancelRetry = () => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };
  const endSession = (reason: SessionEndReason) => {
    if (sessionEnded) return;
    sessionEnded = true;
    cancelRetry();
    socket.disconnect();
    onSessionEnded?.(reason);
  };
  /**
   * socket.io gives up for good after the server's middleware refuses a handshake, and after its
   * reconnection attempts (10, about 40 s) all failed. A gateway that lost Redis or is busy refuses
   * with SERVICE_UNAVAILABLE / RATE_LIMITED, and one being redeployed may be away longer than the
   * attempts last: try again with the reconnection delays (1 s doubling to 5 s, jittered) for as
   * long as the session lasts and the app wants the connection. Unsent chat messages wait for it.
   */
  const retryLater = () => {
    if (retryTimer || sessionEnded || !wanted) return;
    const manager = socket.io;
    const base = Math.min(manager.reconnectionDelay() * 2 ** refusedAttempts, manager.reconnectionDelayMax());
    refusedAttempts++;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        if (!sessionEnded && wanted && !socket.connected) socket.connect();
      },
      base * (0.5 + Math.random() * 0.5),
    );
  };

  socket.on('connect', () => {
    refusedAttempts = 0;
    cancelRetry();
  });

  socket.on('session_revoked', ({ reason }) => endSession(reason));
  socket.on('disconnect', (reason) => {
    // socket.io retries by itself after a lost transport, but not after the server's own disconnect.
    if (reason === 'io server disconnect' && !sessionEnded) socket.connect();
  });
  socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
    const code = err.data?.code;
    if (code === ErrorCode.SessionExpired) endSession('expired');
    else if (code === ErrorCode.ServiceUnavailable || code === ErrorCode.RateLimited) retryLater();
  });
  // Each connect() after this starts a new series of the spec's 10 attempts.
  socket.io.on('reconnect_failed', retryLater);

  return {
    socket,
    connect() {
      sessionEnded = false;
      wanted = true;
      socket.connect();
    },
    disconnect() {
      wanted = false;
      cancelRetry();
      socket.disconnect();
    },
    async request(event, payload) {
      if (!socket.connected) throw new SocketError(SocketMessages.notConnected);
      let answer: unknown;
      try {
        const emitter = socket.timeout(SOCKET_ACK_TIMEOUT) as unknown as {
          emitWithAck(e: string, p: unknown): Promise<unknown>;
        };
        answer = await emitter.emitWithAck(event, payload);
      } catch {
        throw new SocketError(SocketMessages.serviceTimeout, ErrorCode.ServiceUnavailable);
      }
      if (isSocketError(answer)) throw new SocketError(answer.error, answer.code);
      return answer as never;
    },
  };
}
