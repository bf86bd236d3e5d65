/** Typed socket.io events (spec 000 §7). Filled in by the chat and call issues. */
export interface ServerToClientEvents {
  connected: (payload: { userId: string }) => void;
}
export interface ClientToServerEvents {
  ping: (ack: (payload: { ok: true }) => void) => void;
}
