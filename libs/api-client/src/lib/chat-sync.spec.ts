import { EventEmitter } from 'node:events';
import {
  ChatMessages,
  ErrorCode,
  TYPING_STOP_AFTER_MS,
  type ChatMessageDto,
  type ConversationPageDto,
  type SendMessagePayload,
  type SyncMessagesPayload,
} from '@mate/contracts';
import type { ChatApi } from './chat';
import { ChatSync, TYPING_INDICATOR_TIMEOUT_MS, type PendingMessage, type PendingStore } from './chat-sync';
import { SocketError, type SocketClient } from './socket';

const ME = 'me';
const BOB = 'bob';
const CAROL = 'carol';

/**
 * A chat server in memory standing in for gateway + chat-service: it stores messages with a
 * per-conversation seq, keys sends by (sender, clientId), answers sync_messages and pages, and lets
 * a test drop pushes, refuse or hold sends, and go offline.
 */
class FakeChatServer {
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

function harness(
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
async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

async function waitFor(check: () => boolean, what = 'condition') {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await settle(5);
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const contents = (sync: ChatSync, userId = BOB) => sync.entries(userId).map((e) => e.content);

describe('ChatSync', () => {
  afterEach(() => jest.useRealTimers());

  it('opens a conversation: loads the newest page, marks it read, and pages back to older messages', async () => {
    const h = harness();
    for (let i = 1; i <= 60; i++) h.server.store(i % 2 ? BOB : ME, i % 2 ? ME : BOB, `msg ${i}`);
    h.server.unreadCount = 30;
    h.sync.start();
    await settle();
    expect(h.sync.unreadCount).toBe(30);
    h.server.unreadCount = 0;
    await h.sync.open(BOB);
    expect(contents(h.sync)).toEqual(Array.from({ length: 50 }, (_, i) => `msg ${i + 11}`));
    expect(h.server.sent('mark_as_read')).toEqual([{ otherUserId: BOB }]);
    expect(h.sync.unreadCount).toBe(0);
    expect(h.sync.hasOlder(BOB)).toBe(true);
    await h.sync.loadOlder(BOB);
    expect(contents(h.sync)).toEqual(Array.from({ length: 60 }, (_, i) => `msg ${i + 1}`));
    expect(h.sync.hasOlder(BOB)).toBe(false);
    expect(h.sync.entries(BOB)[0]).toMatchObject({ mine: false, senderId: BOB, status: 'sent', key: 'm1' });
  });

  it('keeps each message once and in seq order whatever the order and repetition of pushes', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    const m1 = h.server.store(BOB, ME, 'one');
    const m2 = h.server.store(BOB, ME, 'two');
    const m3 = h.server.store(BOB, ME, 'three');
    h.push('new_message', m1);
    h.push('new_message', m3);
    h.push('new_message', m2);
    h.push('new_message', m1);
    h.push('new_message', { ...m3 });
    await waitFor(() => contents(h.sync).length === 3);
    await settle();
    expect(contents(h.sync)).toEqual(['one', 'two', 'three']);
    expect(h.sync.entries(BOB).map((e) => e.message?.seq)).toEqual([1, 2, 3]);
    expect(h.sync.stats.duplicatesDropped).toBeGreaterThanOrEqual(2);
  });

  it('fills a gap: a seq past the next expected one asks sync_messages for what is missing', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    const all = Array.from({ length: 7 }, (_, i) => h.server.store(BOB, ME, `b${i + 1}`));
    h.push('new_message', all[0]);
    // Pushes 2..6 were lost (a Redis outage); 7 arrives.
    h.push('new_message', all[6]);
    await waitFor(() => contents(h.sync).length === 7, 'the gap filled');
    expect(contents(h.sync)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']);
    expect(h.server.sent('sync_messages')[0]).toEqual({ conversations: [{ userId: BOB, afterSeq: 1 }] });
    expect(h.sync.stats).toMatchObject({ deliveredLive: 2, deliveredByResume: 5, gapsFilled: 1 });
  });

  it('fills a gap over REST when the socket is down', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    const all = Array.from({ length: 3 }, (_, i) => h.server.store(BOB, ME, `b${i + 1}`));
    h.socket.connected = false;
    h.push('new_message', all[2]);
    await waitFor(() => contents(h.sync).length === 3, 'the REST fill');
    expect(h.api.getConversation).toHaveBeenLastCalledWith(BOB, { after: 0 });
  });

  it('sends: pending first, then the stored message in its place; marks own messages read on messages_read', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.sendMode = 'hold';
    const entry = h.sync.send(BOB, '  \u0007Hello\u202E  ');
    expect(entry).toMatchObject({
      key: 'c1',
      clientId: 'c1',
      content: 'Hello',
      status: 'pending',
      mine: true,
      message: null,
    });
    expect(h.server.sent('send_message')).toEqual([{ recipientId: BOB, content: 'Hello', clientId: 'c1' }]);
    h.server.sendMode = 'ok';
    const stored = h.server.messages[0];
    // message_sent from the server (another path than the ack) settles the pending entry.
    h.push('message_sent', stored);
    await waitFor(() => h.sync.entries(BOB)[0]?.status === 'sent');
    expect(h.sync.entries(BOB)).toHaveLength(1);
    expect(h.sync.entries(BOB)[0]).toMatchObject({
      key: stored.id,
      clientId: 'c1',
      status: 'sent',
      message: stored,
    });
    expect(h.saved()).toEqual([]);
    h.push('messages_read', { userId: BOB, readUpTo: 1 });
    await waitFor(() => h.sync.entries(BOB)[0]?.status === 'read');
  });

  it('refuses what the server would refuse before sending it', () => {
    const h = harness();
    h.sync.start();
    expect(() => h.sync.send(BOB, ' \n\t ')).toThrow(ChatMessages.emptyMessage);
    expect(() => h.sync.send(BOB, '😀'.repeat(2001))).toThrow(ChatMessages.tooLong);
    expect(() => h.sync.send(ME, 'hi')).toThrow(ChatMessages.messageSelf);
    expect(h.sync.send(BOB, '😀'.repeat(2000)).status).toBe('pending');
    expect(h.server.sent('send_message')).toHaveLength(1);
  });

  it('re-sends an unacknowledged message with the same clientId after a reconnect; it is stored once', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.sendMode = 'hold';
    h.sync.send(BOB, 'first');
    h.sync.send(BOB, 'second');
    // One at a time: the second waits for the first's answer.
    expect(h.server.sent('send_message')).toHaveLength(1);
    h.disconnect();
    for (const reject of h.server.held.splice(0)) reject();
    await settle();
    expect(h.sync.entries(BOB).map((e) => e.status)).toEqual(['pending', 'pending']);
    h.server.sendMode = 'ok';
    h.reconnect();
    await waitFor(() => h.sync.entries(BOB).every((e) => e.status === 'sent'), 'both sent');
    expect(h.server.messages.map((m) => [m.content, m.clientId, m.seq])).toEqual([
      ['first', 'c1', 1],
      ['second', 'c2', 2],
    ]);
    expect(contents(h.sync)).toEqual(['first', 'second']);
    const sends = h.server.sent('send_message') as SendMessagePayload[];
    expect(sends.map((s) => s.clientId)).toEqual(expect.arrayContaining(['c1', 'c2']));
    expect(sends.filter((s) => s.clientId === 'c1').length).toBeGreaterThanOrEqual(1);
    expect(h.sync.stats.acked).toBe(2);
  });

  it('retries after a backoff while the service is unavailable, without a reconnect', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.sendMode = 'unavailable';
    h.sync.send(BOB, 'later');
    await settle();
    expect(h.server.sent('send_message')).toHaveLength(1);
    h.server.sendMode = 'ok';
    // random() is 0: the first retry waits half of the 1 s base.
    jest.advanceTimersByTime(499);
    await settle();
    expect(h.server.sent('send_message')).toHaveLength(1);
    jest.advanceTimersByTime(1);
    await settle();
    expect(h.server.sent('send_message')).toEqual([
      { recipientId: BOB, content: 'later', clientId: 'c1' },
      { recipientId: BOB, content: 'later', clientId: 'c1' },
    ]);
    expect(h.sync.entries(BOB)[0].status).toBe('sent');
    expect(h.sync.stats.retries).toBe(1);
  });

  it('marks a refused message failed with its error, goes on with the next, and retries it on demand', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.sendMode = { refuse: ChatMessages.notMatched, code: ErrorCode.Forbidden };
    h.sync.send(BOB, 'refused');
    await waitFor(() => h.sync.entries(BOB)[0]?.status === 'failed');
    expect(h.sync.entries(BOB)[0]).toMatchObject({
      status: 'failed',
      error: ChatMessages.notMatched,
      key: 'c1',
    });
    expect(h.saved()).toEqual([
      expect.objectContaining({ clientId: 'c1', status: 'failed', error: ChatMessages.notMatched }),
    ]);
    h.server.sendMode = 'ok';
    h.sync.send(BOB, 'next');
    await waitFor(() => h.sync.entries(BOB).some((e) => e.status === 'sent'));
    expect(h.sync.entries(BOB).map((e) => [e.content, e.status])).toEqual([
      ['next', 'sent'],
      ['refused', 'failed'],
    ]);
    h.sync.retry('c1');
    await waitFor(() => h.sync.entries(BOB).every((e) => e.status === 'sent'));
    expect(contents(h.sync)).toEqual(['next', 'refused']);
  });

  it('keeps unsent messages in the pending store and sends them in order once connected', async () => {
    const earlier: PendingMessage[] = [
      {
        clientId: 'old-1',
        recipientId: BOB,
        content: 'offline one',
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'pending',
      },
      {
        clientId: 'old-2',
        recipientId: CAROL,
        content: 'to carol',
        createdAt: '2026-01-01T00:00:01.000Z',
        status: 'pending',
      },
    ];
    const h = harness({ pending: earlier, connected: false });
    h.sync.start();
    expect(contents(h.sync)).toEqual(['offline one']);
    h.sync.send(BOB, 'offline two');
    h.sync.send(BOB, 'offline three');
    expect(h.saved().map((p) => p.content)).toEqual([
      'offline one',
      'to carol',
      'offline two',
      'offline three',
    ]);
    expect(h.server.sent('send_message')).toEqual([]);
    expect(h.sync.entries(BOB).map((e) => e.status)).toEqual(['pending', 'pending', 'pending']);
    h.reconnect();
    await waitFor(() => h.saved().length === 0, 'all flushed');
    expect(h.server.conversation(ME, BOB).map((m) => [m.seq, m.content, m.clientId])).toEqual([
      [1, 'offline one', 'old-1'],
      [2, 'offline two', 'c1'],
      [3, 'offline three', 'c2'],
    ]);
    expect(h.server.conversation(ME, CAROL).map((m) => m.content)).toEqual(['to carol']);
    expect(contents(h.sync)).toEqual(['offline one', 'offline two', 'offline three']);
  });

  it('resumes on every connect: what followed in each tracked conversation (looping while hasMore), then the unread count', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    await h.sync.open(CAROL);
    h.sync.close(CAROL);
    h.server.store(BOB, ME, 'b-before');
    h.push('new_message', h.server.messages[0]);
    await waitFor(() => contents(h.sync).length === 1);
    h.disconnect();
    for (let i = 0; i < 4; i++) h.server.store(BOB, ME, `b-missed-${i}`);
    for (let i = 0; i < 3; i++) h.server.store(CAROL, ME, `c-missed-${i}`);
    h.server.unreadCount = 3;
    const syncsBefore = h.server.sent('sync_messages').length;
    h.reconnect();
    await waitFor(() => contents(h.sync).length === 5 && contents(h.sync, CAROL).length === 3, 'resume');
    const syncs = h.server.sent('sync_messages').slice(syncsBefore);
    expect(syncs[0]).toEqual({
      conversations: [
        { userId: BOB, afterSeq: 1 },
        { userId: CAROL, afterSeq: 0 },
      ],
    });
    expect(syncs.length).toBeGreaterThanOrEqual(2);
    expect(contents(h.sync)).toEqual(['b-before', 'b-missed-0', 'b-missed-1', 'b-missed-2', 'b-missed-3']);
    await waitFor(() => h.sync.unreadCount === 3, 'unread refreshed');
    expect(h.sync.stats.resumes).toBeGreaterThanOrEqual(1);
  });

  it('tries the resume again after a backoff when the service could not answer it while the socket stayed up', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.disconnect();
    h.server.store(BOB, ME, 'missed');
    const handle = h.server.handle.bind(h.server);
    let refuse = true;
    h.server.handle = async (event, payload) => {
      if (event === 'sync_messages' && refuse)
        throw new SocketError('Service unavailable', ErrorCode.ServiceUnavailable);
      return handle(event, payload);
    };
    h.reconnect();
    await settle(50);
    expect(contents(h.sync)).toEqual([]);
    refuse = false;
    // random() is 0: half of the 1 s base.
    jest.advanceTimersByTime(500);
    await settle(50);
    expect(contents(h.sync)).toEqual(['missed']);
  });

  it('sends again what a resync finds unsent and fetches what followed (e.g. when the page becomes visible)', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.store(BOB, ME, 'pushed while away');
    await h.sync.resync();
    expect(contents(h.sync)).toEqual(['pushed while away']);
    expect(h.sync.stats.deliveredByResume).toBe(1);
  });

  it("catches up when the gateway says pushes may have been lost while the socket stayed up (sync_required)", async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    // Stored while the gateway had no Redis: the push never came.
    h.server.store(BOB, ME, 'pushed during the outage');
    h.push('sync_required', undefined);
    await waitFor(() => contents(h.sync).length === 1, 'the missed message');
    expect(contents(h.sync)).toEqual(['pushed during the outage']);
    expect(h.sync.stats.deliveredByResume).toBe(1);
  });

  it('an acknowledgement that arrives after its resume does not add the message twice', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    h.server.sendMode = 'hold';
    h.sync.send(BOB, 'once');
    h.disconnect();
    h.server.sendMode = 'ok';
    h.reconnect();
    await waitFor(() => h.sync.entries(BOB)[0]?.status === 'sent');
    for (const reject of h.server.held.splice(0)) reject();
    await settle();
    expect(contents(h.sync)).toEqual(['once']);
    expect(h.server.messages).toHaveLength(1);
  });

  it('marks incoming messages read while the conversation is open, and counts them unread while it is not', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    const marksAfterOpen = h.server.sent('mark_as_read').length;
    h.push('new_message', h.server.store(BOB, ME, 'seen'));
    await waitFor(() => h.server.sent('mark_as_read').length === marksAfterOpen + 1, 'mark_as_read');
    expect(h.sync.unreadCount).toBe(0);
    h.sync.close(BOB);
    h.push('new_message', h.server.store(BOB, ME, 'unseen'));
    h.push('new_message', h.server.store(CAROL, ME, 'from carol'));
    await waitFor(() => h.sync.unreadCount === 2, 'two unread');
    expect(h.server.sent('mark_as_read')).toHaveLength(marksAfterOpen + 1);
    h.server.unreadCount = 1;
    await h.sync.open(BOB);
    expect(h.sync.unreadCount).toBe(1);
  });

  it('typing: one typing per stretch, stop_typing after 1 s without input or on send; the other side clears after 5 s', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const h = harness();
    h.sync.start();
    h.sync.typing(BOB);
    jest.advanceTimersByTime(TYPING_STOP_AFTER_MS - 100);
    h.sync.typing(BOB);
    jest.advanceTimersByTime(TYPING_STOP_AFTER_MS - 100);
    expect(h.server.requests.map((r) => r.event)).toEqual(['typing']);
    jest.advanceTimersByTime(100);
    expect(h.server.requests.map((r) => r.event)).toEqual(['typing', 'stop_typing']);
    h.sync.typing(BOB);
    h.sync.send(BOB, 'hi');
    expect(h.server.requests.map((r) => r.event)).toEqual([
      'typing',
      'stop_typing',
      'typing',
      'stop_typing',
      'send_message',
    ]);
    jest.advanceTimersByTime(TYPING_STOP_AFTER_MS * 2);
    expect(h.server.sent('stop_typing')).toHaveLength(2);
    h.sync.typing(BOB);
    h.sync.close(BOB);
    expect(h.server.sent('stop_typing')).toHaveLength(3);
    jest.advanceTimersByTime(TYPING_STOP_AFTER_MS * 2);
    expect(h.server.sent('stop_typing')).toHaveLength(3);

    h.push('user_typing', { userId: BOB });
    expect(h.sync.isTyping(BOB)).toBe(true);
    h.push('user_stopped_typing', { userId: BOB });
    expect(h.sync.isTyping(BOB)).toBe(false);
    h.push('user_typing', { userId: BOB });
    jest.advanceTimersByTime(TYPING_INDICATOR_TIMEOUT_MS - 1);
    expect(h.sync.isTyping(BOB)).toBe(true);
    jest.advanceTimersByTime(1);
    expect(h.sync.isTyping(BOB)).toBe(false);
    h.push('user_typing', { userId: BOB });
    h.push('new_message', h.server.store(BOB, ME, 'done typing'));
    expect(h.sync.isTyping(BOB)).toBe(false);
  });

  it('tells subscribers about changes and keeps unchanged entries (and lists) identical', async () => {
    const h = harness();
    h.sync.start();
    await h.sync.open(BOB);
    const calls: number[] = [];
    const unsubscribe = h.sync.subscribe(() => calls.push(1));
    h.push('new_message', h.server.store(BOB, ME, 'a'));
    await waitFor(() => calls.length > 0 && h.sync.entries(BOB)[0]?.message?.isRead === true);
    const first = h.sync.entries(BOB);
    expect(h.sync.entries(BOB)).toBe(first);
    h.push('new_message', h.server.store(BOB, ME, 'b'));
    await waitFor(() => h.sync.entries(BOB).length === 2);
    expect(h.sync.entries(BOB)[0]).toBe(first[0]);
    unsubscribe();
    const seen = calls.length;
    h.push('new_message', h.server.store(BOB, ME, 'c'));
    await waitFor(() => h.sync.entries(BOB).length === 3);
    await settle();
    expect(calls.length).toBe(seen);
    h.sync.stop();
    h.push('new_message', h.server.store(BOB, ME, 'after stop'));
    await settle();
    expect(h.sync.entries(BOB)).toHaveLength(3);
  });

  describe('races the delivery promise depends on', () => {
    /** One store for several engines, as localStorage is for the tabs of one browser. */
    function sharedStore() {
      let saved: unknown[] = [];
      const store: PendingStore = {
        load: () => saved as PendingMessage[],
        save: (p) => {
          saved = JSON.parse(JSON.stringify(p)) as unknown[];
        },
      };
      return { store, ids: () => (saved as PendingMessage[]).map((p) => p.clientId) };
    }

    it("two tabs of one member share the pending store: neither overwrites the other's unsent messages, and each is stored once", async () => {
      const shared = sharedStore();
      const server = new FakeChatServer();
      const tabA = harness({ store: shared.store, server, connected: false, prefix: 'a' });
      const tabB = harness({ store: shared.store, server, connected: false, prefix: 'b' });
      tabA.sync.start();
      tabB.sync.start();
      tabA.sync.send(BOB, 'from tab A');
      tabB.sync.send(BOB, 'from tab B');
      expect([...shared.ids()].sort()).toEqual(['ac1', 'bc1']);
      // Tab A is closed while offline; tab B comes online and sends its own.
      tabA.sync.stop();
      tabB.reconnect();
      await waitFor(() => server.messages.length === 1, "tab B's message stored");
      await settle();
      expect(shared.ids()).toEqual(['ac1']);
      // The next page load sends what tab A left.
      const reload = harness({ store: shared.store, server, prefix: 'r' });
      reload.sync.start();
      await waitFor(() => shared.ids().length === 0, "tab A's message sent by the reload");
      expect(server.messages.map((m) => [m.content, m.clientId])).toEqual([
        ['from tab B', 'bc1'],
        ['from tab A', 'ac1'],
      ]);
      // message_sent reaches every own socket: the tab that did not send it shows it once.
      tabB.push('message_sent', server.messages[1]);
      await waitFor(() => contents(tabB.sync).length === 2);
      expect(contents(tabB.sync)).toEqual(['from tab B', 'from tab A']);
    });

    it('a late acknowledgement to an engine stopped a moment ago does not erase what its successor saved', async () => {
      const shared = sharedStore();
      const server = new FakeChatServer();
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const handle = server.handle.bind(server);
      server.handle = async (event, payload) => {
        if (event === 'send_message') await gate;
        return handle(event, payload);
      };
      const first = harness({ store: shared.store, server, prefix: 'f' });
      first.sync.start();
      first.sync.send(BOB, 'one');
      // The app replaces its engine (sign-out and in, React's double effect) while 'one' is in flight.
      first.sync.stop();
      const second = harness({ store: shared.store, server, connected: false, prefix: 's' });
      second.sync.start();
      second.sync.send(BOB, 'two');
      expect(shared.ids()).toEqual(['fc1', 'sc1']);
      release();
      await waitFor(() => server.messages.length === 1, "the first engine's send answered");
      await settle();
      expect(shared.ids()).toEqual(['sc1']);
      second.reconnect();
      await waitFor(() => shared.ids().length === 0, 'the successor flushed');
      expect(server.messages.map((m) => [m.content, m.clientId])).toEqual([
        ['one', 'fc1'],
        ['two', 'sc1'],
      ]);
      expect(contents(second.sync)).toEqual(['one', 'two']);
    });

    it("ignores malformed entries, another member's and those to oneself in the pending store", async () => {
      const valid = (clientId: string, extra: Record<string, unknown> = {}) => ({
        clientId,
        recipientId: BOB,
        content: `text ${clientId}`,
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'pending',
        ...extra,
      });
      const junk = [
        valid('ok-1'),
        null,
        'not an entry',
        valid('ok-2', { senderId: ME, status: 'failed', error: 'You can only message your matches' }),
        { ...valid('x'), clientId: 7 },
        valid('has space'),
        valid('to-self', { recipientId: ME }),
        valid('blank', { content: ' \n ' }),
        valid('number', { content: 42 }),
        valid('too-long', { content: 'x'.repeat(2001) }),
        valid('theirs', { senderId: 'someone-else' }),
        valid('ok-1', { content: 'a second copy' }),
        valid('odd-status', { status: 'sent' }),
      ] as unknown as PendingMessage[];
      const h = harness({ pending: junk, connected: false });
      h.sync.start();
      expect(h.sync.unsent.map((p) => [p.clientId, p.status, p.content])).toEqual([
        ['ok-1', 'pending', 'text ok-1'],
        ['ok-2', 'failed', 'text ok-2'],
        ['odd-status', 'pending', 'text odd-status'],
      ]);
      h.reconnect();
      await waitFor(() => h.server.messages.length === 2, 'the valid pending ones sent');
      await settle();
      expect((h.server.sent('send_message') as SendMessagePayload[]).map((p) => p.clientId)).toEqual([
        'ok-1',
        'odd-status',
      ]);
      expect(h.saved().map((p) => p.clientId)).toEqual(['ok-2']);
    });

    it('keeps what it holds across stop() and start() when the store could not be written (quota, privacy mode)', async () => {
      const broken: PendingStore = {
        load: () => [],
        save: () => {
          throw new Error('QuotaExceededError');
        },
      };
      const h = harness({ store: broken, connected: false });
      h.sync.start();
      expect(h.sync.send(BOB, 'kept in memory').status).toBe('pending');
      h.sync.stop();
      h.sync.start();
      expect(h.sync.unsent.map((p) => p.content)).toEqual(['kept in memory']);
      h.reconnect();
      await waitFor(() => h.server.messages.length === 1, 'sent after the restart');
      await waitFor(() => h.sync.unsent.length === 0, 'settled');
      expect(contents(h.sync)).toEqual(['kept in memory']);
    });

    it('a gap fill the service could not answer while the socket stayed up is tried again with backoff', async () => {
      jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
      const h = harness();
      h.sync.start();
      await h.sync.open(BOB);
      const all = Array.from({ length: 3 }, (_, i) => h.server.store(BOB, ME, `b${i + 1}`));
      const handle = h.server.handle.bind(h.server);
      let refuse = true;
      h.server.handle = async (event, payload) => {
        if (event === 'sync_messages' && refuse)
          throw new SocketError('Service unavailable', ErrorCode.ServiceUnavailable);
        return handle(event, payload);
      };
      // Pushes 1 and 2 were lost in a Redis outage; 3 arrives while chat-service is away.
      h.push('new_message', all[2]);
      await settle(50);
      expect(contents(h.sync)).toEqual(['b3']);
      refuse = false;
      // No message and no reconnect follow: the fill is tried again by itself (random() is 0: 500 ms).
      jest.advanceTimersByTime(500);
      await settle(50);
      expect(contents(h.sync)).toEqual(['b1', 'b2', 'b3']);
    });

    it('a message an earlier session left pending but the server stored (its ack was lost) is shown once', async () => {
      const server = new FakeChatServer();
      const stored = server.store(ME, BOB, 'sent before the reload', 'left-1');
      const h = harness({
        server,
        pending: [
          {
            clientId: 'left-1',
            recipientId: BOB,
            content: 'sent before the reload',
            createdAt: '2026-01-01T00:00:00.000Z',
            status: 'pending',
          },
        ],
      });
      h.sync.start();
      await h.sync.open(BOB);
      await waitFor(() => h.sync.unsent.length === 0, 'merged by clientId');
      await settle();
      expect(h.sync.entries(BOB).map((e) => [e.key, e.status])).toEqual([[stored.id, 'sent']]);
      expect(server.messages).toHaveLength(1);
      expect(h.saved()).toEqual([]);
    });

    it('a resume ends when the service keeps answering hasMore without moving any position', async () => {
      const h = harness();
      h.sync.start();
      await h.sync.open(BOB);
      const m = h.server.store(BOB, ME, 'only');
      const handle = h.server.handle.bind(h.server);
      let syncs = 0;
      h.server.handle = async (event, payload) => {
        if (event !== 'sync_messages') return handle(event, payload);
        syncs++;
        return { messages: [m], hasMore: true };
      };
      await waitFor(() => h.sync.stats.resumes === 1, 'the first resume');
      const syncsBefore = syncs;
      h.disconnect();
      h.reconnect();
      await waitFor(() => h.sync.stats.resumes === 2, 'the resume ended');
      expect(contents(h.sync)).toEqual(['only']);
      // Asked once, then once more from the moved position, and no more.
      expect(syncs - syncsBefore).toBe(2);
    });
  });
});
