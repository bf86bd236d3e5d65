import { ChatErrorCode, ChatMessages, type SendMessagePayload } from '@mate/contracts';
import { type PendingMessage, type PendingStore } from '..';
import {
  ME,
  BOB,
  CAROL,
  FakeChatServer,
  harness,
  settle,
  waitFor,
  contents,
  sharedStore,
} from './chat-sync-test-bed';

describe('ChatSync: pending sends (nothing typed is lost, each stored once)', () => {
  afterEach(() => jest.useRealTimers());

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
    h.server.sendMode = { refuse: ChatMessages.notMatched, code: ChatErrorCode.NotMatched };
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

  describe('races the delivery promise depends on', () => {
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
  });
});
