import { SECOND } from './constants';

/**
 * Chat (issue 9; spec 000 §2 Messages and Chat, §3 conversation summary and message, §4 Chat,
 * §5 last-message time, §7 API and socket events). chat-service owns conversations, messages and
 * read state; the gateway relays the socket events to it (`SOCKET_EVENT_OWNERS`).
 *
 * Delivery model (ARCHITECTURE §3, docs/adr/0013-chat-delivery.md):
 * - a message is stored, with the next sequence number of its conversation (1, 2, 3, ...), before
 *   it is acknowledged and before it is pushed;
 * - `clientId` is unique per sender: a retried send returns the stored message, never a second one;
 * - pushes may be lost (a Redis outage, a socket that was away): a client that sees a gap in a
 *   conversation's sequence, or reconnects, asks for what follows the last sequence it holds
 *   (`sync_messages`, or `GET /api/chat/conversation/{userId}?after=N`). The database is the
 *   source of truth; a client orders by `seq` and keeps each `id` once.
 */

/** Spec 000 §9: a conversation loads 50 messages at a time. */
export const CONVERSATION_PAGE_SIZE = 50;
export const CONVERSATION_MAX_LIMIT = 100;
/** Content limit, in characters (Unicode code points) after trimming and stripping control characters. */
export const CHAT_MESSAGE_MAX_LENGTH = 2000;
/** A client-generated message id: 1–64 characters of [A-Za-z0-9_-] (a UUID fits). */
export const CHAT_CLIENT_ID_MAX_LENGTH = 64;
export const CHAT_CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Spec 000 §4 and §9: stop_typing follows after 1 s of no input. */
export const TYPING_STOP_AFTER_MS = 1 * SECOND;
/** Most messages one `sync_messages` answer carries; `hasMore` says to ask again. */
export const CHAT_SYNC_MAX_MESSAGES = 500;
/** Most conversations one `sync_messages` may name. */
export const CHAT_SYNC_MAX_CONVERSATIONS = 200;

/** Spec 000 §3 "Message", plus the delivery fields of the chat issue. */
export interface ChatMessageDto {
  id: string;
  /** Per-conversation sequence number: 1 for the first message, then +1 each, never reused. */
  seq: number;
  senderId: string;
  recipientId: string;
  content: string;
  createdAt: string;
  /** Whether the recipient has read it (shows '✓✓ Read' on the sender's side). */
  isRead: boolean;
  /** The sender's profile name, or null when unknown (the app shows 'Unknown User'). */
  senderName: string | null;
  /** The sender's client-generated id, when it sent one (its retries carry the same). */
  clientId: string | null;
}

/** Spec 000 §3 "Conversation summary": one per match, newest activity first. */
export interface ConversationSummaryDto {
  userId: string;
  userName: string | null;
  profilePicture: string | null;
  unreadCount: number;
  /** Null while no message was sent: the row reads 'Start a conversation'. */
  lastMessage: string | null;
  /** The last message's time, or the match's time while there is none. */
  lastMessageTime: string;
  lastMessageSenderId: string | null;
  /**
   * The seq of the last message the member can see (0 while none: empty, or a re-match hides all
   * before it). The page's `lastSeq` is where a client holding nothing resumes.
   */
  lastSeq: number;
  matchedAt: string;
  /**
   * The other member deleted their account (issue 12, ADR 0016): the conversation stays readable
   * under an anonymous id, shown as 'Unknown User', and can no longer be written to. Absent or
   * false for every other conversation.
   */
  readOnly?: boolean;
}

/**
 * `GET /api/chat/conversation/{userId}?limit=50[&before=SEQ | &after=SEQ]`: messages in ascending
 * `seq`. Without a cursor, the newest `limit`; `before` pages back to older ones, `after` returns
 * what follows (resume). `hasMore` says whether older (or, with `after`, newer) messages remain.
 */
export interface ConversationPageDto {
  userId: string;
  messages: ChatMessageDto[];
  hasMore: boolean;
  /** The cursor for the next older page (`before`), or null when the first message is included. */
  nextBefore: number | null;
  /** The highest sequence number of the conversation. */
  lastSeq: number;
}

/** `GET /api/chat/unread-count` (spec 000 §7 "count"). */
export interface UnreadCountDto {
  count: number;
}

/** `POST /api/chat/conversation/{userId}/read` and the `mark_as_read` acknowledgement. */
export interface MarkReadResultDto {
  /** Every message from the other member up to this sequence number is read. */
  readUpTo: number;
}

/** Texts of chat's refusals and of the screens (spec 000 §2, §4, §8), shared by service, app and tests. */
export const ChatMessages = {
  /** 403: no open conversation between the two (not matched, or the match ended). */
  notMatched: 'You can only message your matches',
  /** 404: a conversation the member is not part of, told the same as one that does not exist. */
  conversationNotFound: 'Conversation not found',
  messageSelf: "You can't message yourself",
  emptyMessage: 'Message cannot be empty',
  tooLong: `Message must be at most ${CHAT_MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters`,
  invalidClientId: 'clientId must be 1 to 64 letters, digits, hyphens or underscores',
  /** 409: a clientId this sender already used for a different conversation. */
  clientIdReused: 'This clientId was already used for another message',
  /** 429: one member's messages past the per-member limit. */
  tooManyMessages: 'Too many messages. Please slow down.',
  /** Spec 000 §8 fallbacks and screen texts. */
  conversationsFailed: 'Failed to get conversations',
  conversationFailed: 'Failed to get conversation',
  markReadFailed: 'Failed to mark conversation as read',
  unreadCountFailed: 'Failed to get unread count',
  loadConversationsFailed: 'Failed to load conversations',
  loadConversationFailed: 'Failed to load conversation',
  /** Where the composer was: the other member deleted their account (a read-only conversation). */
  partnerDeleted: "This member deleted their account. You can still read your messages, but you can't reply.",
} as const;

/**
 * Codes of chat's refusals, one per cause, over HTTP and in socket acknowledgements alike. A
 * content empty or too long once normalized is SendMessageDto's: `VALIDATION_FAILED`.
 */
export enum ChatErrorCode {
  NotMatched = 'CHAT_NOT_MATCHED',
  ConversationNotFound = 'CONVERSATION_NOT_FOUND',
  MessageSelf = 'MESSAGE_SELF',
  ClientIdReused = 'CLIENT_ID_REUSED',
}

/** Screen texts of spec 000 §2 and §4, word for word. */
export const ChatTexts = {
  messagesTitle: 'Messages',
  startConversation: 'Start a conversation',
  noMatches: 'No matches yet',
  discoverMatches: 'Discover Matches',
  noMessages: 'No messages yet',
  sayHi: 'Say hi to start the conversation!',
  typing: 'typing...',
  sent: '✓ Sent',
  read: '✓✓ Read',
  chatFallbackTitle: 'Chat',
  unknownUser: 'Unknown User',
  /** Spec 000 §8: the other member's name could not be fetched. */
  userFallback: 'User',
} as const;

/**
 * Characters that show nothing on their own: format characters (zero-width spaces and joiners,
 * word joiners, soft hyphens...), separators and whitespace, and the blank-looking letters
 * (Hangul fillers, the Braille blank) used to make names and messages that look empty.
 */
const INVISIBLE = /[\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0\u2800]/gu;

/**
 * What chat accepts as message content: control characters stripped (tab and newline kept), then
 * trimmed; a message with nothing visible left (only zero-width or blank characters) is empty.
 * Invisible characters between visible ones are kept (a zero-width joiner makes one emoji of
 * several). The service applies it before the length check; the app applies it before sending.
 */
export function normalizeMessageContent(content: string): string {
  // C0 controls except \t and \n, DEL, C1 controls, and the bidi overrides that can disguise text.
  // eslint-disable-next-line no-control-regex
  const cleaned = content.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, '').trim();
  return cleaned.replace(INVISIBLE, '').length === 0 ? '' : cleaned;
}

/** Length as members count it: Unicode code points, so an emoji counts once. */
export function messageLength(content: string): number {
  let n = 0;
  for (const _ of content) n++;
  return n;
}

/**
 * `GET /internal/chat/pairs/{userA}/{userB}/messages?before=ISO&limit=20` (service to service,
 * internal credential only): the newest `limit` messages between the two members sent before
 * `before` (default: now), oldest first, whether or not their conversation is open. safety-service
 * keeps them in a report (issue 10); the order of the two ids does not matter.
 */
export interface PairMessagesSnapshotDto {
  messages: PairMessageSnapshot[];
}
export interface PairMessageSnapshot {
  id: string;
  seq: number;
  senderId: string;
  recipientId: string;
  content: string;
  createdAt: string;
}
/** Most messages one pair snapshot may ask for. */
export const PAIR_SNAPSHOT_MAX_LIMIT = 50;

/** Chat's part of a data export (issue 12; chat-service): every message sent and received. */
export interface ChatExportPart {
  conversations: {
    withUserId: string;
    createdAt: string;
    closed: boolean;
    /**
     * Oldest first. Chat keeps how far each member has read (a position), not when: `isRead` says
     * whether the recipient has read the message, `readAt` is null.
     */
    messages: {
      id: string;
      seq: number;
      direction: 'sent' | 'received';
      content: string;
      createdAt: string;
      readAt: string | null;
      isRead: boolean;
    }[];
  }[];
}
