import { EventEmitter } from 'node:events';
import {
  ErrorCode,
  type ChatMessageDto,
  type ConversationPageDto,
  type SendMessagePayload,
  type SyncMessagesPayload,
} from '@mate/contracts';
import type { ChatApi } from '../../chat';
import { SocketError, type SocketClient } from '../../socket';
import { ChatSync, type PendingMessage, type PendingStore } from '..';

/* The test bed of ChatSync's specs: an in-memory chat server, an engine on a fake socket, waits. */

export const ME = 'me';
export const BOB = 'bob';
export const CAROL = 'carol';

/**
 * A chat server in memory standing in for gateway + chat-service: it stores messages with a
 * per-conversation seq, keys sends by (sender, clientId), answers sync_messages and pages, and lets
 * a test drop pushes, refuse or hold sends, and go offline.
 */
export class FakeChatServer {
  messages: ChatMessageDto[] = [];
  private nextId = 1;
  readUpTo = new Map<string, number>();
  sendMode: 'ok' | 'unavailable' | 'hold' | { refuse: string; code: string } = 'ok';
  held: (() => void)[] = [];
  requests: { event: string; payload: unknown }[] = [];
  unreadCount = 0;

  private key(a: string, b: string) {
    return [a, b].sort().join('|');
  }

  store(
    senderId: string,
    recipientId: string,
    content: string,
    clientId: string | null = null,
  ): ChatMessageDto {
    const existing =
      clientId && this.messages.find((m) => m.senderId === senderId && m.clientId === clientId);
    if (existing) return existing;
    const conv = this.conversation(senderId, recipientId);
    const m: ChatMessageDto = {
      id: `m${this.nextId++}`,
      seq: conv.length + 1,
      senderId,
      recipientId,
      content,
      createdAt: new Date(1_700_000_000_000 + this.nextId * 1000).toISOString(),
      isRead: false,
      senderName: null,
      clientId,
    };
    this.messages.push(m);
    return m;
  }

  conversation(a: string, b: string) {
    return this.messages
      .filter((m) => this.key(m.senderId, m.recipientId) === this.key(a, b))
      .sort((x, y) => x.seq - y.seq);
  }

  page(other: string, query: { before?: number; after?: number; limit?: number } = {}): ConversationPageDto {
    const all = this.conversation(ME, other);
    const limit = query.limit ?? 50;
    let slice: ChatMessageDto[];
    let hasMore: boolean;
    if (query.after !== undefined) {
      const rest = all.filter((m) => m.seq > (query.after as number));
      slice = rest.slice(0, limit);
      hasMore = rest.length > limit;
    } else {
      const older = query.before !== undefined ? all.filter((m) => m.seq < (query.before as number)) : all;
      slice = older.slice(-limit);
      hasMore = older.length > limit;
    }
    return {
      userId: other,
      messages: slice,
      hasMore,
      nextBefore: query.after === undefined && hasMore ? slice[0].seq : null,
      lastSeq: all.length,
    };
  }

  async handle(event: string, payload: unknown): Promise<unknown> {
    this.requests.push({ event, payload });
    if (event === 'send_message') {
      const p = payload as SendMessagePayload;
      const mode = this.sendMode;
      if (mode === 'unavailable') throw new SocketError('Service unavailable', ErrorCode.ServiceUnavailable);
      if (typeof mode === 'object') throw new SocketError(mode.refuse, mode.code);
      if (mode === 'hold') {
        // Stored, but the answer never comes back (the socket drops before the ack).
        this.store(ME, p.recipientId, p.content, p.clientId ?? null);
        return new Promise((_, reject) =>
          this.held.push(() => reject(new SocketError('socket has been disconnected'))),
        );
      }
      return this.store(ME, p.recipientId, p.content, p.clientId ?? null);
    }
    if (event === 'sync_messages') {
      const p = payload as SyncMessagesPayload;
      const out: ChatMessageDto[] = [];
      for (const { userId, afterSeq } of p.conversations ?? [])
        out.push(...this.conversation(ME, userId).filter((m) => m.seq > afterSeq));
      return { messages: out.slice(0, 3), hasMore: out.length > 3 };
    }
    if (event === 'mark_as_read') {
      const other = (payload as { otherUserId: string }).otherUserId;
      const upTo = this.conversation(ME, other).length;
      this.readUpTo.set(other, upTo);
      return { readUpTo: upTo };
    }
    return { ok: true };
  }

  sent(event: string) {
    return this.requests.filter((r) => r.event === event).map((r) => r.payload);
  }
}

export function harness(
  options: {
    pending?: PendingMessage[];
    connected?: boolean;
    store?: PendingStore;
    server?: FakeChatServer;
    /** Prefix of this engine's clientIds (two engines of one member must not collide). */
    prefix?: string;
  } = {},
) {
  const server = options.server ?? new FakeChatServer();
  const socket = Object.assign(new EventEmitter(), { connected: options.connected ?? true });
  const client = {
    socket,
    connect: jest.fn(),
    disconnect: jest.fn(),
    request: jest.fn(async (event: string, payload: unknown) => {
      if (!socket.connected) throw new SocketError('Socket not connected');
      return server.handle(event, payload);
    }),
  };
  let saved: PendingMessage[] = options.pending ?? [];
  const saves: PendingMessage[][] = [];
  const pendingStore = options.store ?? {
    load: () => saved,
    save: (p: PendingMessage[]) => {
      saved = p;
      saves.push(p);
    },
  };
  const api: jest.Mocked<ChatApi> = {
    getConversations: jest.fn(async () => []),
    getConversation: jest.fn(
      async (userId: string, query?: { before?: number; after?: number; limit?: number }) =>
        server.page(userId, query),
    ),
    markAsRead: jest.fn(async (userId: string) => ({ readUpTo: server.conversation(ME, userId).length })),
    getUnreadCount: jest.fn(async () => server.unreadCount),
  };
  let n = 0;
  const sync = new ChatSync({
    socket: client as unknown as SocketClient,
    api,
    selfId: ME,
    pendingStore,
    newClientId: () => `${options.prefix ?? ''}c${++n}`,
    random: () => 0,
  });
  return {
    server,
    socket,
    client,
    api,
    sync,
    saved: () => saved,
    saves,
    /** The gateway pushes an event to this client. */
    push(event: string, payload: unknown) {
      socket.emit(event, payload);
    },
    disconnect() {
      socket.connected = false;
      socket.emit('disconnect', 'transport close');
    },
    reconnect() {
      socket.connected = true;
      socket.emit('connect');
    },
  };
}

/** Lets queued promise callbacks (acks, pages) run. */
export async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

export async function waitFor(check: () => boolean, what = 'condition') {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await settle(5);
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const contents = (sync: ChatSync, userId = BOB) => sync.entries(userId).map((e) => e.content);

/** One store for several engines, as localStorage is for the tabs of one browser. */
export function sharedStore() {
  let saved: unknown[] = [];
  const store: PendingStore = {
    load: () => saved as PendingMessage[],
    save: (p) => {
      saved = JSON.parse(JSON.stringify(p)) as unknown[];
    },
  };
  return { store, ids: () => (saved as PendingMessage[]).map((p) => p.clientId) };
}
