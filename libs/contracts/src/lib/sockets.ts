import { EdgeMessages } from './errors';
import type { ApiErrorCode } from './error-codes';
import type { ChatMessageDto, MarkReadResultDto } from './chat';
import { SECOND } from './constants';
import { SERVICES, type ServiceName } from './events';

/**
 * The realtime channel (spec 000 §7): typed socket.io events between the member app and the
 * gateway. Services push `ServerToClientEvents` through server-kit's `RealtimeEmitter`; the gateway
 * routes `ClientToServerEvents` to their owning service (`SOCKET_EVENT_OWNERS`) and answers each
 * through the socket.io acknowledgement with the service's result or `{ error }`.
 *
 * The chat and call payloads below are the spec's fields; the chat and call issues refine them.
 */

/** Where the socket.io server listens, on the gateway's own origin. */
export const SOCKET_PATH = '/socket.io';

/** Client settings of spec 000 §7 and §9. */
export const SOCKET_RECONNECTION_ATTEMPTS = 10;
export const SOCKET_RECONNECTION_DELAY = 1 * SECOND;
export const SOCKET_RECONNECTION_DELAY_MAX = 5 * SECOND;
export const SOCKET_CONNECT_TIMEOUT = 20 * SECOND;
/** How long a client waits for an acknowledgement before giving up (the gateway gives up first). */
export const SOCKET_ACK_TIMEOUT = 15 * SECOND;

/** Rooms every authenticated socket joins: pushes go to a user (all devices) or one session. */
export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** The words the realtime channel answers with, shared so tests and clients agree. */
export const SocketMessages = {
  unknownEvent: 'Unknown event',
  invalidPayload: 'The event payload must be one JSON object',
  tooManyEvents: 'Too many events. Please slow down.',
  tooManyConnections: 'Too many open connections. Close another tab or device first.',
  tooManyPending: 'Too many events waiting for an answer. Please wait for them.',
  serviceTimeout: 'The service did not answer in time',
  serviceUnavailable: EdgeMessages.unavailable,
  originNotAllowed: 'Origin not allowed',
  notConnected: 'Socket not connected',
} as const;

/** Why the server closed a socket, sent in `session_revoked` just before the disconnect. */
export type SessionEndReason = 'revoked' | 'expired';

/** What every acknowledgement carries when the event failed. */
export interface SocketErrorAck {
  error: string;
  code?: ApiErrorCode | string;
  requestId?: string;
}

/** An acknowledgement: the owning service's result, or an error. */
export type SocketAck<T> = T | SocketErrorAck;
export type SocketAckCallback<T> = (answer: SocketAck<T>) => void;

export function isSocketError(answer: unknown): answer is SocketErrorAck {
  return typeof answer === 'object' && answer !== null && typeof (answer as SocketErrorAck).error === 'string';
}

/** What a handler answers when it has nothing to return. */
export interface SocketOk {
  ok: true;
}

/** A chat message as pushed to both sides (`ChatMessageDto`, issue 9). */
export type ChatMessagePayload = ChatMessageDto;

/**
 * `send_message` (spec 000 §7 `{recipientId, content}`, plus the chat issue's `clientId`). The
 * `clientId` is the sender's own id for the message: a retry with the same one returns the stored
 * message. Without one the server makes one (no retry protection then).
 */
export interface SendMessagePayload {
  recipientId: string;
  content: string;
  clientId?: string;
}
export interface RecipientPayload {
  recipientId: string;
}
/**
 * `sync_messages` (the chat issue's resume): what follows the last sequence the client holds in
 * each conversation it names, and/or every message created after `since` (an ISO time) in the
 * member's other conversations (a named conversation goes by its position only). Answered in ascending (conversation, seq) order, at most
 * `CHAT_SYNC_MAX_MESSAGES`; `hasMore` says to ask again from the new positions.
 */
export interface SyncMessagesPayload {
  conversations?: { userId: string; afterSeq: number }[];
  since?: string;
}
export interface SyncMessagesResult {
  messages: ChatMessageDto[];
  hasMore: boolean;
}
/** `messages_read`: `userId` read the conversation up to `readUpTo` (the sender's messages show '✓✓ Read'). */
export interface MessagesReadPayload {
  userId: string;
  readUpTo: number;
}
export interface MarkAsReadPayload {
  otherUserId: string;
}
export interface CallInitiatePayload {
  to: string;
  callerName: string;
}
export interface CallPeerPayload {
  to: string;
}
export interface CallSignalPayload {
  to: string;
  signal: unknown;
}
export interface SubtitlePayload {
  recipientId: string;
  text: string;
}

/** The other member of a new match, as the 'It's a Match!' popup shows them. */
export interface NewMatchPayload {
  matchId: string;
  user: { id: string; name: string | null; profilePicture: string | null };
  matchedAt: string;
}

/** Server → client (spec 000 §7 "Incoming events"), plus `session_revoked`. */
export interface ServerToClientEvents {
  connected: (payload: { userId: string }) => void;
  new_message: (message: ChatMessagePayload) => void;
  message_sent: (message: ChatMessagePayload) => void;
  user_typing: (payload: { userId: string }) => void;
  user_stopped_typing: (payload: { userId: string }) => void;
  messages_read: (payload: MessagesReadPayload) => void;
  'call:incoming': (payload: { from: string; callerName: string }) => void;
  'call:accepted': (payload: { from: string }) => void;
  'call:rejected': (payload: { from: string }) => void;
  'call:ended': (payload: { from: string }) => void;
  'call:signal': (payload: { from: string; signal: unknown }) => void;
  'call:ice-candidate': (payload: { from: string; candidate: unknown }) => void;
  subtitle: (payload: { userId: string; text: string }) => void;
  /** A mutual like made a match (matching-service pushes it to both members, issue 8). */
  new_match: (payload: NewMatchPayload) => void;
  /**
   * Pushes to this socket may have been lost while its connection stayed up (the gateway lost
   * Redis for a while, so services' pushes never reached it): the client asks for what it missed
   * (chat: `sync_messages` from the positions it holds).
   */
  sync_required: () => void;
  /** The session behind this socket ended (logout, revoked elsewhere): the client signs out. */
  session_revoked: (payload: { reason: SessionEndReason }) => void;
}

/** Client → server (spec 000 §7 "Outgoing events"); each may carry an acknowledgement. */
export interface ClientToServerEvents {
  send_message: (payload: SendMessagePayload, ack?: SocketAckCallback<ChatMessagePayload>) => void;
  typing: (payload: RecipientPayload, ack?: SocketAckCallback<SocketOk>) => void;
  stop_typing: (payload: RecipientPayload, ack?: SocketAckCallback<SocketOk>) => void;
  mark_as_read: (payload: MarkAsReadPayload, ack?: SocketAckCallback<MarkReadResultDto>) => void;
  /** Resume after a reconnect or a gap in a conversation's sequence (chat issue). */
  sync_messages: (payload: SyncMessagesPayload, ack?: SocketAckCallback<SyncMessagesResult>) => void;
  'call:initiate': (payload: CallInitiatePayload, ack?: SocketAckCallback<SocketOk>) => void;
  'call:accept': (payload: CallPeerPayload, ack?: SocketAckCallback<SocketOk>) => void;
  'call:reject': (payload: CallPeerPayload, ack?: SocketAckCallback<SocketOk>) => void;
  'call:end': (payload: CallPeerPayload, ack?: SocketAckCallback<SocketOk>) => void;
  'call:signal': (payload: CallSignalPayload, ack?: SocketAckCallback<SocketOk>) => void;
  subtitle: (payload: SubtitlePayload, ack?: SocketAckCallback<SocketOk>) => void;
}

export type ClientEventName = keyof ClientToServerEvents;
export type ServerEventName = keyof ServerToClientEvents;
export type ClientEventPayload<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[0];
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** Which service handles which client event (ARCHITECTURE §3). An event not listed is refused. */
export const SOCKET_EVENT_OWNERS: Record<ClientEventName, ServiceName> = {
  send_message: SERVICES.chat,
  typing: SERVICES.chat,
  stop_typing: SERVICES.chat,
  mark_as_read: SERVICES.chat,
  sync_messages: SERVICES.chat,
  'call:initiate': SERVICES.call,
  'call:accept': SERVICES.call,
  'call:reject': SERVICES.call,
  'call:end': SERVICES.call,
  'call:signal': SERVICES.call,
  subtitle: SERVICES.call,
};

export function isClientEventName(name: unknown): name is ClientEventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SOCKET_EVENT_OWNERS, name);
}
