import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

const ORIGIN = 'https://mate.example';
// A path, not a URL object: the test environment's URL is jsdom's.
const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../public/sw.js'), 'utf8');

interface FakeWindowClient {
  url: string;
  focused: boolean;
  focus: ReturnType<typeof vi.fn>;
  postMessage: ReturnType<typeof vi.fn>;
}

const windowClient = (path: string, origin = ORIGIN, focused = false): FakeWindowClient => {
  const client: FakeWindowClient = {
    url: `${origin}${path}`,
    focused,
    focus: vi.fn(() => Promise.resolve(client)),
    postMessage: vi.fn(),
  };
  return client;
};

/** Runs public/sw.js as the browser would, in a worker scope of fakes; dispatch() awaits waitUntil. */
function loadServiceWorker(windows: FakeWindowClient[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: vi.fn(() => Promise.resolve()),
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: {
      matchAll: vi.fn(() => Promise.resolve(windows)),
      openWindow: vi.fn(() => Promise.resolve(null)),
      claim: vi.fn(() => Promise.resolve()),
    },
  };
  runInNewContext(source, { self, URL, console });

  async function dispatch(type: string, event: Record<string, unknown> = {}) {
    const waits: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (promise: Promise<unknown>) => waits.push(promise) });
    await Promise.all(waits);
  }
  const push = (data: unknown) => dispatch('push', { data });
  const click = (url: unknown) => {
    const notification = { data: { url }, close: vi.fn() };
    return { notification, done: dispatch('notificationclick', { notification }) };
  };
  return { self, dispatch, push, click };
}

const pushData = (payload: unknown) => ({ json: () => payload });

describe('public/sw.js', () => {
  it('takes over at once: skipWaiting on install, clients.claim on activate', async () => {
    const sw = loadServiceWorker();
    await sw.dispatch('install');
    await sw.dispatch('activate');
    expect(sw.self.skipWaiting).toHaveBeenCalled();
    expect(sw.self.clients.claim).toHaveBeenCalled();
  });

  it("shows a push's title, body and tag, renotifying, with the app's icon and the url to open", async () => {
    const sw = loadServiceWorker();
    await sw.push(
      pushData({
        kind: 'new_message',
        title: 'New message from Bea',
        body: 'See you at 8?',
        url: '/chat/u2',
        tag: 'chat:u2',
        count: 1,
        sentAt: '2026-11-23T10:00:00.000Z',
      }),
    );
    expect(sw.self.registration.showNotification).toHaveBeenCalledWith('New message from Bea', {
      body: 'See you at 8?',
      tag: 'chat:u2',
      renotify: true,
      icon: '/favicon.svg',
      data: { url: '/chat/u2' },
    });
  });

  it('shows a generic Mate notification for a push without a payload or with a garbled one', async () => {
    const generic = {
      body: 'You have a new notification',
      tag: 'mate',
      renotify: true,
      icon: '/favicon.svg',
      data: { url: '/dashboard' },
    };
    const sw = loadServiceWorker();
    await sw.push(null);
    await sw.push({
      json: () => {
        throw new SyntaxError('Unexpected token');
      },
    });
    await sw.push(pushData('just text'));
    await sw.push(pushData({ title: '', body: 42 }));
    expect(sw.self.registration.showNotification.mock.calls).toEqual([
      ['Mate', generic],
      ['Mate', generic],
      ['Mate', generic],
      ['Mate', generic],
    ]);
  });

  it.each(['https://evil.example/phish', '//evil.example/x', '/\\evil.example', '/\t/evil.example/phish', '/\n/evil.example', '/\r\n/evil.example', 'javascript:alert(1)', 42, undefined])(
    'never points a notification outside the app: %s → /dashboard',
    async (url) => {
      const sw = loadServiceWorker();
      await sw.push(pushData({ title: 'Hi', body: 'x', tag: 't', url }));
      expect(sw.self.registration.showNotification).toHaveBeenCalledWith(
        'Hi',
        expect.objectContaining({ data: { url: '/dashboard' } }),
      );
      const { notification, done } = sw.click(url);
      await done;
      expect(notification.close).toHaveBeenCalled();
      expect(sw.self.clients.openWindow).toHaveBeenCalledWith('/dashboard');
    },
  );

  it('on click with no tab of the app open, closes the notification and opens the screen in a new window', async () => {
    const sw = loadServiceWorker([windowClient('/', 'https://other.example')]);
    const { notification, done } = sw.click('/messages');
    await done;
    expect(notification.close).toHaveBeenCalled();
    expect(sw.self.clients.matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
    expect(sw.self.clients.openWindow).toHaveBeenCalledWith('/messages');
  });

  it('on click focuses an open tab of the app and asks it to go to the screen', async () => {
    const other = windowClient('/dashboard');
    const focused = windowClient('/discover', ORIGIN, true);
    const sw = loadServiceWorker([other, focused]);
    await sw.click('/chat/u2').done;
    expect(focused.focus).toHaveBeenCalled();
    expect(focused.postMessage).toHaveBeenCalledWith({ type: 'mate:navigate', url: '/chat/u2' });
    expect(other.focus).not.toHaveBeenCalled();
    expect(sw.self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('on click, a tab already on that screen is only focused', async () => {
    const there = windowClient('/chat/u2');
    const sw = loadServiceWorker([windowClient('/discover', ORIGIN, true), there]);
    await sw.click('/chat/u2').done;
    expect(there.focus).toHaveBeenCalled();
    expect(there.postMessage).not.toHaveBeenCalled();
    expect(sw.self.clients.openWindow).not.toHaveBeenCalled();
  });
});
