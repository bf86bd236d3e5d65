import { ErrorCode } from '@mate/contracts';
import { SocketError } from '../../socket';
import { ME, BOB, CAROL, harness, settle, waitFor, contents } from './chat-sync-test-bed';

describe('ChatSync: catching up (gap fills, resume on every connect, resync)', () => {
  afterEach(() => jest.useRealTimers());

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

  it('catches up when the gateway says pushes may have been lost while the socket stayed up (sync_required)', async () => {
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

  describe('races the delivery promise depends on', () => {
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
