import { TYPING_STOP_AFTER_MS } from '@mate/contracts';
import { TYPING_INDICATOR_TIMEOUT_MS } from '..';
import { ME, BOB, harness } from './chat-sync-test-bed';

describe('ChatSync: typing', () => {
  afterEach(() => jest.useRealTimers());

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
});
