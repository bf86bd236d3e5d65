import type { Page, WebSocket } from '@playwright/test';

/**
 * Watches the member app's realtime channel from the browser's side: the WebSocket connections the
 * current document opens to the gateway's `/socket.io` and the events the server sends on them.
 */
export function watchRealtime(page: Page) {
  const sockets: { ws: WebSocket; events: string[]; closed: boolean }[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    const entry = { ws, events: [] as string[], closed: false };
    ws.on('framereceived', ({ payload }) => {
      // socket.io event packets are "42[<name>, ...]" on the engine.io message type.
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      const match = /^42(?:\d+)?\["([^"]+)"/.exec(text);
      if (match) entry.events.push(match[1]);
    });
    ws.on('close', () => {
      entry.closed = true;
    });
    sockets.push(entry);
  });
  // A full page load ends the old document's sockets; Playwright reports no close for those.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      for (const s of sockets) s.closed = true;
    }
  });
  return {
    /** Open connections that the server greeted with `connected` (it authenticated the session). */
    connected: () => sockets.filter((s) => !s.closed && s.events.includes('connected')).length,
    open: () => sockets.filter((s) => !s.closed).length,
  };
}
