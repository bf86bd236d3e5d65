import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeChat, type FakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';

/** jsdom lays nothing out: the log is 300 px high and each message 50 px. */
const ROW_PX = 50;
const VIEW_PX = 300;
const isLog = (element: Element) => element.classList.contains('chat-log');
const descriptors = {
  scrollHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollHeight'),
  clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
};

const log = () => screen.getByRole('log', { name: 'Messages with Sam' });
const bubbles = () => within(log()).queryAllByRole('listitem');
const scrollTo = (top: number) =>
  act(() => {
    log().scrollTop = top;
    fireEvent.scroll(log());
  });

describe('the chat log scrolling', () => {
  let api: FakeApi;
  let chat: FakeChat;

  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return isLog(this) ? this.querySelectorAll('li').length * ROW_PX : 0;
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return isLog(this) ? VIEW_PX : 0;
      },
    });
  });
  afterAll(() => {
    for (const [name, descriptor] of Object.entries(descriptors)) {
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
    }
  });

  beforeEach(() => {
    api = signedInApi();
    api.profile.getUserProfile.mockResolvedValue({ ...aProfile({ userId: 'u1', name: 'Sam' }), id: 'p-sam' });
    chat = fakeChat(api, aUser().id);
  });

  async function open(count: number) {
    chat.match(
      { id: 'u1', name: 'Sam' },
      Array.from({ length: count }, (_, i) => ({ from: 'them' as const, content: `message ${i + 1}` })),
    );
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    await waitFor(() => expect(bubbles()).toHaveLength(Math.min(count, 50)));
  }

  it('opens at the newest message and follows new ones while at the bottom', async () => {
    await open(20);
    expect(log().scrollTop).toBe(20 * ROW_PX);
    chat.receive('u1', 'a new one');
    await waitFor(() => expect(bubbles()).toHaveLength(21));
    expect(log().scrollTop).toBe(21 * ROW_PX);
  });

  it('stays where the member reads when a message arrives, but goes down for their own', async () => {
    await open(20);
    scrollTo(200);
    chat.receive('u1', 'while reading above');
    await waitFor(() => expect(bubbles()).toHaveLength(21));
    expect(log().scrollTop).toBe(200);

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'mine{Enter}');
    await waitFor(() => expect(bubbles()).toHaveLength(22));
    expect(log().scrollTop).toBe(22 * ROW_PX);
  });

  it("keeps the newest message in view when the log gets shorter (a phone's keyboard comes up), but not while the member reads above", async () => {
    // jsdom has no ResizeObserver: this one reports a new size when the test says so.
    const observed: { target: Element; report: () => void }[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly report: ResizeObserverCallback) {}
        observe(target: Element) {
          observed.push({ target, report: () => this.report([], this as unknown as ResizeObserver) });
        }
        unobserve = vi.fn();
        disconnect = vi.fn();
      },
    );
    const logGetsShorter = () =>
      act(() => observed.filter(({ target }) => target === log()).forEach(({ report }) => report()));
    try {
      await open(20);
      // The observer starts in an effect after the render that showed the messages: on a busy
      // machine that effect can come after the messages are seen.
      await waitFor(() => expect(observed.map(({ target }) => target)).toContain(log()));
      expect(log().scrollTop).toBe(20 * ROW_PX);
      // A shorter log keeps its scrollTop, which now stops short of the end: no scroll event.
      log().scrollTop = 20 * ROW_PX - 4 * ROW_PX;
      logGetsShorter();
      expect(log().scrollTop).toBe(20 * ROW_PX);

      scrollTo(200);
      logGetsShorter();
      expect(log().scrollTop).toBe(200);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the message being read in place when older ones load above it', async () => {
    await open(60);
    scrollTo(0);
    await waitFor(() => expect(bubbles()).toHaveLength(60));
    // The ten older messages went in above: what was at the top is now 10 rows further down.
    expect(log().scrollTop).toBe(10 * ROW_PX);
    expect(bubbles()[0]).toHaveTextContent('message 1');
  });
});
