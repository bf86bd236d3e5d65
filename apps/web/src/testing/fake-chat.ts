import { ApiError, SocketError, type ConversationQuery, type SocketClient } from '@mate/api-client';
import {
  CONVERSATION_PAGE_SIZE,
  ChatErrorCode,
  ChatMessages,
  ErrorCode,
  type ChatMessageDto,
  type ConversationPageDto,
  type ConversationSummaryDto,
  type SyncMessagesPayload,
} from '@mate/contracts';
import { act } from '@testing-library/react';
import type { SocketClientFactory } from '../realtime/RealtimeContext';
import type { FakeApi } from './fake-api';
import { fakeSocketClient, type FakeSocketClient } from './fake-socket';

export interface FakeMember {
  id: string;
  name: string | null;
  profilePicture?: string | null;
  /** They deleted their account: chat lists the conversation read-only (issue 12). */
  readOnly?: boolean;
}

interface FakeConversation {
  member: FakeMember;
  messages: ChatMessageDto[];
  matchedAt: string;
}

type Refusal = { error: string; code: string };

/**
 * chat-service and the gateway as the app sees them, over the fake socket client and the fake
 * API: it stores messages with per-conversation sequence numbers, answers `send_message`,
 * `mark_as_read`, `sync_messages`, typing and the REST calls, and lets a test play the other
 * member (`receive`, `typing`, `reads`). The app's real ChatSync runs on top of it.
 */
export function fakeChat(api: FakeApi, selfId: string, { connectOnCreate = true } = {}) {
  const conversations = new Map<string, FakeConversation>();
  const clients: FakeSocketClient[] = [];
  const refusals: Refusal[] = [];
  let nextId = 1;
  let clock = Date.parse('2026-11-23T10:00:00.000Z');
  const tick = () => new Date((clock += 1000)).toISOString();

  const conversation = (userId: string): FakeConversation => {
    const found = conversations.get(userId);
    if (!found) throw new ApiError(ChatMessages.conversationNotFound, 404, ChatMessages.conversationNotFound);
    return found;
  };

  const store = (from: string, to: string, content: string, clientId: string | null): ChatMessageDto => {
    const other = from === selfId ? to : from;
    const c = conversation(other);
    if (clientId) {
      const again = c.messages.find((m) => m.senderId === from && m.clientId === clientId);
      if (again) return again;
    }
    const message: ChatMessageDto = {
      id: `m${nextId++}`,
      seq: c.messages.length + 1,
      senderId: from,
      recipientId: to,
      content,
      createdAt: tick(),
      isRead: false,
      senderName: from === selfId ? 'Ada' : c.member.name,
      clientId,
    };
    c.messages.push(message);
    return message;
  };

  const unread = () =>
    [...conversations.values()].reduce(
      (sum, c) => sum + c.messages.filter((m) => m.senderId !== selfId && !m.isRead).length,
      0,
    );

  const markRead = (userId: string) => {
    const c = conversation(userId);
    for (const m of c.messages) if (m.senderId === userId) m.isRead = true;
    return { readUpTo: c.messages.length };
  };

  const page = (
    userId: string,
    { limit = CONVERSATION_PAGE_SIZE, before, after }: ConversationQuery = {},
  ): ConversationPageDto => {
    const all = conversation(userId).messages.map((m) => ({ ...m }));
    const lastSeq = all.length;
    if (after !== undefined) {
      const next = all.filter((m) => m.seq > after);
      return {
        userId,
        messages: next.slice(0, limit),
        hasMore: next.length > limit,
        nextBefore: null,
        lastSeq,
      };
    }
    const older = before === undefined ? all : all.filter((m) => m.seq < before);
    const messages = older.slice(Math.max(0, older.length - limit));
    const hasMore = older.length > messages.length;
    return { userId, messages, hasMore, nextBefore: hasMore ? messages[0].seq : null, lastSeq };
  };

  const summaries = (): ConversationSummaryDto[] =>
    [...conversations.values()]
      .map((c) => {
        const last = c.messages[c.messages.length - 1];
        return {
          userId: c.member.id,
          userName: c.member.name,
          profilePicture: c.member.profilePicture ?? null,
          unreadCount: c.messages.filter((m) => m.senderId !== selfId && !m.isRead).length,
          lastMessage: last?.content ?? null,
          lastMessageTime: last?.createdAt ?? c.matchedAt,
          lastMessageSenderId: last?.senderId ?? null,
          lastSeq: c.messages.length,
          matchedAt: c.matchedAt,
          ...(c.member.readOnly ? { readOnly: true } : {}),
        };
      })
      .sort((a, b) => b.lastMessageTime.localeCompare(a.lastMessageTime));

  api.chat.getConversations.mockImplementation(async () => summaries());
  api.chat.getConversation.mockImplementation(async (userId: string, query?: ConversationQuery) =>
    page(userId, query),
  );
  api.chat.markAsRead.mockImplementation(async (userId: string) => markRead(userId));
  api.chat.getUnreadCount.mockImplementation(async () => unread());

  async function handle(event: string, payload: Record<string, unknown>): Promise<unknown> {
    switch (event) {
      case 'send_message': {
        const refusal = refusals.shift();
        if (refusal) throw new SocketError(refusal.error, refusal.code);
        return store(
          selfId,
          payload.recipientId as string,
          payload.content as string,
          (payload.clientId as string) ?? null,
        );
      }
      case 'mark_as_read':
        return markRead(payload.otherUserId as string);
      case 'sync_messages': {
        const { conversations: asked = [] } = payload as SyncMessagesPayload;
        const messages = asked.flatMap(({ userId, afterSeq }) =>
          conversations.has(userId) ? page(userId, { after: afterSeq, limit: 500 }).messages : [],
        );
        return { messages, hasMore: false };
      }
      case 'typing':
      case 'stop_typing':
        return { ok: true };
      default:
        throw new SocketError('Unknown event', ErrorCode.ValidationFailed);
    }
  }

  const realtime: SocketClientFactory = ({ getToken, onSessionEnded }) => {
    const client = fakeSocketClient(getToken, onSessionEnded);
    client.request.mockImplementation((event: string, payload: Record<string, unknown>) => {
      if (!client.socket.connected) return Promise.reject(new SocketError('Socket not connected'));
      return handle(event, payload);
    });
    client.connect.mockImplementation(() => {
      if (connectOnCreate) queueMicrotask(() => client.serverConnects());
    });
    clients.push(client);
    return client as unknown as SocketClient;
  };

  const socket = () => {
    const client = clients[clients.length - 1];
    if (!client) throw new Error('the app opened no realtime channel');
    return client;
  };

  return {
    realtime,
    socket,
    /** A match with `member`: their conversation exists, with these messages (oldest first). */
    match(
      member: FakeMember,
      messages: Array<{ from: 'me' | 'them'; content: string; isRead?: boolean }> = [],
    ) {
      conversations.set(member.id, { member, messages: [], matchedAt: tick() });
      for (const m of messages) {
        const stored =
          m.from === 'me'
            ? store(selfId, member.id, m.content, null)
            : store(member.id, selfId, m.content, null);
        stored.isRead = m.isRead ?? false;
      }
    },
    messages: (userId: string) => conversation(userId).messages,
    /** The match ends (unmatch or block): the conversation is closed and no longer listed. */
    end(userId: string) {
      conversations.delete(userId);
    },
    /** The other member sends a message: stored, then pushed as new_message. */
    receive(from: string, content: string, { push = true } = {}) {
      const message = store(from, selfId, content, null);
      if (push) act(() => void socket().socket.emit('new_message', { ...message }));
      return message;
    },
    typing: (from: string) => act(() => void socket().socket.emit('user_typing', { userId: from })),
    stopsTyping: (from: string) =>
      act(() => void socket().socket.emit('user_stopped_typing', { userId: from })),
    /** The other member opens the conversation: own messages read, messages_read pushed. */
    reads(userId: string) {
      const c = conversation(userId);
      for (const m of c.messages) if (m.senderId === selfId) m.isRead = true;
      act(() => void socket().socket.emit('messages_read', { userId, readUpTo: c.messages.length }));
    },
    /** The next send_message is refused with this error. */
    refuseNextSend(error: string, code: string = ChatErrorCode.NotMatched) {
      refusals.push({ error, code });
    },
    /** The connection drops (the browser went offline). */
    goOffline() {
      act(() => {
        const client = socket();
        client.socket.connected = false;
        client.socket.emit('disconnect', 'transport close');
      });
    },
    comeBack() {
      act(() => socket().serverConnects());
    },
    /** The events the app emitted, in order, with their payloads. */
    emitted(event?: string) {
      return socket()
        .request.mock.calls.filter(([name]) => event === undefined || name === event)
        .map(([name, payload]) => ({ event: name as string, payload: payload as Record<string, unknown> }));
    },
  };
}
export type FakeChat = ReturnType<typeof fakeChat>;
