import { describe, expect, it, vi } from 'vitest';
import { createAppServiceWorker, type WorkboxLike } from './sw-registration';

/** workbox-window's Workbox at the boundary: the browser's registration and worker events, by hand. */
function fakeWorkbox(registration?: ServiceWorkerRegistration) {
  const listeners = new Map<string, Array<() => void>>();
  const workbox = {
    register: vi.fn(() => Promise.resolve(registration)),
    addEventListener: (type: string, listener: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    messageSkipWaiting: vi.fn(),
  } satisfies WorkboxLike;
  const fire = (type: 'waiting' | 'controlling') => listeners.get(type)?.forEach((listener) => listener());
  return { workbox, fire };
}

describe('the app service worker (src/pwa/sw-registration.ts)', () => {
  it('registers /sw.js once, however many callers ask (the app at load, push when it subscribes)', async () => {
    const registration = { scope: '/' } as ServiceWorkerRegistration;
    const { workbox } = fakeWorkbox(registration);
    const worker = createAppServiceWorker(workbox, vi.fn());
    const [first, second] = await Promise.all([worker.register(), worker.register()]);
    expect(first).toBe(registration);
    expect(second).toBe(registration);
    expect(workbox.register).toHaveBeenCalledTimes(1);
  });

  it('fails the registration when the browser registered nothing', async () => {
    const { workbox } = fakeWorkbox();
    await expect(createAppServiceWorker(workbox, vi.fn()).register()).rejects.toThrow('not registered');
  });

  it('tells its subscribers when a new version is waiting', () => {
    const { workbox, fire } = fakeWorkbox({} as ServiceWorkerRegistration);
    const worker = createAppServiceWorker(workbox, vi.fn());
    const listener = vi.fn();
    worker.subscribe(listener);
    expect(worker.updateWaiting()).toBe(false);
    fire('waiting');
    expect(worker.updateWaiting()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('on Reload, lets the waiting worker take over and reloads once it controls the page', () => {
    const { workbox, fire } = fakeWorkbox({} as ServiceWorkerRegistration);
    const reload = vi.fn();
    const worker = createAppServiceWorker(workbox, reload);
    fire('waiting');
    worker.applyUpdate();
    worker.applyUpdate();
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    fire('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('never reloads for the first worker of a visit taking control, nor skips waiting with nothing waiting', () => {
    const { workbox, fire } = fakeWorkbox({} as ServiceWorkerRegistration);
    const reload = vi.fn();
    const worker = createAppServiceWorker(workbox, reload);
    worker.applyUpdate();
    fire('controlling');
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});
