/**
 * As much of a service worker's global scope as Mate's worker uses. The app's TypeScript program
 * has the DOM library, whose `self` is a window; the worker's modules take this instead, so they
 * type-check beside the app and their tests hand them a fake scope.
 */

export interface WorkerEvent {
  waitUntil(promise: Promise<unknown>): void;
}

export interface PushMessage extends WorkerEvent {
  readonly data: { json(): unknown } | null;
}

export interface NotificationClick extends WorkerEvent {
  readonly notification: { readonly data?: { url?: unknown } | null; close(): void };
}

export interface FetchRequestEvent extends WorkerEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

export interface WorkerMessage extends WorkerEvent {
  readonly data: unknown;
}

export interface WindowClient {
  readonly url: string;
  readonly focused: boolean;
  focus(): Promise<WindowClient | null>;
  postMessage(message: unknown): void;
}

export interface WorkerEvents {
  install: WorkerEvent;
  activate: WorkerEvent;
  fetch: FetchRequestEvent;
  message: WorkerMessage;
  push: PushMessage;
  notificationclick: NotificationClick;
}

export interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: {
    showNotification(title: string, options: NotificationOptions & { renotify?: boolean }): Promise<void>;
  };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener<K extends keyof WorkerEvents>(type: K, listener: (event: WorkerEvents[K]) => void): void;
}
