import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveAppShell } from './app-shell';
import { handlePushes } from './push-notifications';
import type { WorkerEvents, WorkerScope } from './worker-scope';

/*
 * Runs the worker's real modules (what src/sw/sw.ts starts as /sw.js) in a worker scope of fakes,
 * with workbox's real precache and router: only the browser's Cache Storage and fetch are fakes.
 */

// jsdom's origin: workbox reads the page's `location` to tell same-origin requests.
const ORIGIN = window.location.origin;

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

/** Cache Storage in memory, keyed by URL (what workbox's precache uses of it). */
class FakeCacheStorage {
  readonly stores = new Map<string, Map<string, Response>>();

  open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    const key = (request: Request | string) => (typeof request === 'string' ? new URL(request, ORIGIN).href : request.url);
    return Promise.resolve({
      match: (request: Request | string) => Promise.resolve(store.get(key(request))?.clone()),
      put: (request: Request | string, response: Response) => {
        store.set(key(request), response);
        return Promise.resolve();
      },
      delete: (request: Request | string) => Promise.resolve(store.delete(key(request))),
      keys: () => Promise.resolve([...store.keys()].map((url) => new Request(url))),
    });
  }

  async match(request: Request | string, options: { cacheName?: string } = {}) {
    const names = options.cacheName ? [options.cacheName] : [...this.stores.keys()];
    for (const name of names) {
      const found = await (await this.open(name)).match(request);
      if (found) return found;
    }
    return undefined;
  }

  keys() {
    return Promise.resolve([...this.stores.keys()]);
  }

  delete(name: string) {
    return Promise.resolve(this.stores.delete(name));
  }

  /** Every URL held in any cache. */
  urls(): string[] {
    return [...this.stores.values()].flatMap((store) => [...store.keys()]);
  }
}

/** What the build injects as self.__WB_MANIFEST (pwa.config.mts): the shell with its revision, hashed chunks without. */
const BUILD = [
  { url: 'index.html', revision: 'shell-1' },
  { url: 'assets/index-abc123.js', revision: null },
  { url: 'icons/icon-192.png', revision: 'icon-1' },
];

const SHELL_HTML = '<!doctype html><div id="root"></div>';

type Listener = (event: unknown) => void;

/** The worker's events (workbox checks `instanceof ExtendableEvent`); `waits` collects waitUntil. */
class FakeExtendableEvent {
  type = '';
  readonly waits: Promise<unknown>[] = [];
  waitUntil(promise: Promise<unknown>) {
    this.waits.push(promise);
  }
}
class FakeFetchEvent extends FakeExtendableEvent {}

/** The worker as src/sw/sw.ts starts it, on a fake scope; dispatch() awaits every waitUntil. */
function loadServiceWorker(windows: FakeWindowClient[] = [], manifest = BUILD) {
  const listeners = new Map<string, Listener[]>();
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    skipWaiting: vi.fn(() => Promise.resolve()),
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: {
      matchAll: vi.fn(() => Promise.resolve(windows)),
      openWindow: vi.fn(() => Promise.resolve(null)),
      claim: vi.fn(() => Promise.resolve()),
    },
  };
  const scope = self as unknown as WorkerScope;
  serveAppShell(scope, manifest);
  handlePushes(scope);

  async function dispatch<K extends keyof WorkerEvents>(type: K, fields: Record<string, unknown> = {}) {
    const event = Object.assign(type === 'fetch' ? new FakeFetchEvent() : new FakeExtendableEvent(), { type, ...fields });
    for (const listener of listeners.get(type) ?? []) listener(event);
    await Promise.all(event.waits);
  }

  /** A fetch as the page makes it: the worker's answer, or null when it leaves it to the network. */
  async function request(path: string, { navigate = false } = {}): Promise<Response | null> {
    const req = new Request(`${ORIGIN}${path}`);
    // The browser's navigations have mode 'navigate', which a page cannot construct.
    if (navigate) Object.defineProperty(req, 'mode', { value: 'navigate' });
    let answer: Promise<Response> | null = null;
    await dispatch('fetch', { request: req, respondWith: (response: Promise<Response>) => (answer = response) });
    return answer;
  }

  const push = (data: unknown) => dispatch('push', { data });
  const click = (url: unknown) => {
    const notification = { data: { url }, close: vi.fn() };
    return { notification, done: dispatch('notificationclick', { notification }) };
  };
  return { self, dispatch, request, push, click };
}

let caches: FakeCacheStorage;
let network: ReturnType<typeof vi.fn<(input: Request | string) => Promise<Response>>>;

beforeEach(() => {
  caches = new FakeCacheStorage();
  network = vi.fn((input: Request | string) => {
    const url = new URL(typeof input === 'string' ? input : input.url, ORIGIN);
    const body = url.pathname === '/index.html' ? SHELL_HTML : `network ${url.pathname}`;
    return Promise.resolve(new Response(body, { status: 200 }));
  });
  vi.stubGlobal('caches', caches);
  vi.stubGlobal('fetch', network);
  // Worker-only classes workbox tests events against.
  vi.stubGlobal('ExtendableEvent', FakeExtendableEvent);
  vi.stubGlobal('FetchEvent', FakeFetchEvent);
  vi.stubGlobal('__WB_DISABLE_DEV_LOGS', true);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the app shell (src/sw/app-shell.ts)', () => {
  it('precaches the build on install and waits: it takes over only when the page asks (SKIP_WAITING)', async () => {
    const sw = loadServiceWorker();
    await sw.dispatch('install');
    expect(caches.urls().map((url) => new URL(url).pathname).sort()).toEqual(
      ['/assets/index-abc123.js', '/icons/icon-192.png', '/index.html'],
    );
    expect(sw.self.skipWaiting).not.toHaveBeenCalled();

    await sw.dispatch('message', { data: { type: 'SOMETHING_ELSE' } });
    expect(sw.self.skipWaiting).not.toHaveBeenCalled();
    await sw.dispatch('message', { data: { type: 'SKIP_WAITING' } });
    expect(sw.self.skipWaiting).toHaveBeenCalledTimes(1);

    await sw.dispatch('activate');
    expect(sw.self.clients.claim).toHaveBeenCalled();
  });

  it.each(['/', '/dashboard', '/chat/u2?from=push', '/discover'])(
    'opens %s from the precached index.html, with the network cut',
    async (path) => {
      const sw = loadServiceWorker();
      await sw.dispatch('install');
      network.mockClear();
      network.mockRejectedValue(new TypeError('Failed to fetch'));

      const answer = await sw.request(path, { navigate: true });
      expect(await answer?.text()).toBe(SHELL_HTML);
      expect(network).not.toHaveBeenCalled();
    },
  );

  it("serves the build's own files from the precache", async () => {
    const sw = loadServiceWorker();
    await sw.dispatch('install');
    network.mockClear();
    const answer = await sw.request('/assets/index-abc123.js');
    expect(await answer?.text()).toBe('network /assets/index-abc123.js');
    expect(network).not.toHaveBeenCalled();
  });

  it.each([
    ['an API answer', '/api/profile/me', false],
    ['a member photo', '/api/photos/files/u1/p1-small.webp', false],
    ['a photo opened as a page', '/api/photos/files/u1/p1.webp', true],
    ['an API page', '/api/docs', true],
    ['the realtime channel', '/socket.io/?EIO=4&transport=polling', false],
    ['a file not in the build', '/uploads/unknown.png', false],
  ])('leaves %s (%s) to the network and never caches it', async (_what, path, navigate) => {
    const sw = loadServiceWorker();
    await sw.dispatch('install');
    const before = caches.urls();

    expect(await sw.request(path, { navigate })).toBeNull();
    expect(caches.urls()).toEqual(before);
    expect(caches.urls().some((url) => /\/(api|socket\.io)\//.test(url))).toBe(false);
  });

  it("on activating a new build, drops the files only the old build had and keeps the new shell's revision", async () => {
    const old = loadServiceWorker();
    await old.dispatch('install');
    await old.dispatch('activate');

    const next = loadServiceWorker([], [
      { url: 'index.html', revision: 'shell-2' },
      { url: 'assets/index-def456.js', revision: null },
      { url: 'icons/icon-192.png', revision: 'icon-1' },
    ]);
    await next.dispatch('install');
    await next.dispatch('activate');

    expect(caches.urls().map((url) => new URL(url).pathname + new URL(url).search).sort()).toEqual([
      '/assets/index-def456.js',
      '/icons/icon-192.png?__WB_REVISION__=icon-1',
      '/index.html?__WB_REVISION__=shell-2',
    ]);
  });
});

const pushData = (payload: unknown) => ({ json: () => payload });

describe('push notifications (src/sw/push-notifications.ts)', () => {
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
