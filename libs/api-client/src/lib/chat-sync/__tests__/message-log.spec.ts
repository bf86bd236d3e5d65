import { ME, BOB, harness, settle, waitFor, contents } from './chat-sync-test-bed';

describe('ChatSync: the message log (each message once, in seq order, the entries a screen reads)', () => {
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
});
