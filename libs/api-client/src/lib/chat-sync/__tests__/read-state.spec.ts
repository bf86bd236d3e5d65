import { ME, BOB, CAROL, harness, waitFor } from './chat-sync-test-bed';

describe('ChatSync: read state', () => {
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
});
