import type { SessionEndReason } from '@mate/contracts';
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * A socket client that records what the app asks of it. `serverConnects()` and
 * `socket.emit(event, payload)` play the gateway's side.
 */
export function fakeSocketClient(
  getToken: () => string | null,
  onSessionEnded: (reason: SessionEndReason) => void,
) {
  const socket = Object.assign(new EventEmitter(), { connected: false });
  const client = {
    socket,
    connect: vi.fn(),
    disconnect: vi.fn(() => {
      socket.connected = false;
      socket.emit('disconnect', 'io client disconnect');
    }),
    request: vi.fn(),
    token: getToken,
    endSession: onSessionEnded,
    serverConnects() {
      socket.connected = true;
      socket.emit('connect');
    },
  };
  return client;
}
export type FakeSocketClient = ReturnType<typeof fakeSocketClient>;
