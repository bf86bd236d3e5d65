/**
 * Redis names of the realtime channel, scoped by the deployment's key prefix so test suites and
 * deployments sharing one Redis never see each other's sockets. The gateway's socket.io adapter
 * and every service's `RealtimeEmitter` must agree on them.
 */
export const realtimeStreamName = (prefix: string) => `${prefix}:socket.io`;
/** Pub/sub channels of the adapter's ephemeral messages (heartbeats, fetchSockets). */
export const realtimeChannelPrefix = (prefix: string) => `${prefix}:socket.io`;
/** Keys of the sessions kept for connection state recovery. */
export const realtimeSessionKeyPrefix = (prefix: string) => `${prefix}:sio:session:`;

/** Entries kept in the stream (the adapter's default): how far back a recovering socket can resume. */
export const REALTIME_STREAM_MAX_LEN = 10_000;

/**
 * The path, on each service, where the gateway delivers client events: `POST <path>/<event>` for
 * one, `POST <path>` with `{ items }` for a batch of at most SOCKET_EVENT_BATCH_MAX.
 */
export const SOCKET_EVENTS_PATH = '/internal/socket-events';

/** Most events the gateway sends in one batch, and the most a service accepts in one. */
export const SOCKET_EVENT_BATCH_MAX = 64;

/**
 * Presence (docs/adr/0005-realtime.md, "Presence"): a hash per member of the sockets the gateway
 * replicas hold for them, field `<instanceId>/<socketId>`, value `<instanceId>`.
 */
export const presenceUserKey = (prefix: string, userId: string) => `${prefix}:presence:user:${userId}`;
/**
 * Prefix of the per-instance liveness keys: `<prefix><instanceId>`, refreshed by that gateway's
 * heartbeat. On a cluster they share one hash tag (`{<prefix>:presence:gateways}:`), so a reader
 * checks every instance it met in one command.
 */
export const presenceInstanceKeyPrefix = (prefix: string, cluster = false) =>
  cluster ? `{${prefix}:presence:gateways}:` : `${prefix}:presence:gateway:`;
/** A gateway instance's liveness key: while it exists, its sockets count. */
export const presenceInstanceKey = (prefix: string, instanceId: string, cluster = false) =>
  `${presenceInstanceKeyPrefix(prefix, cluster)}${instanceId}`;
/** A socket's field in its member's presence hash: one instance's disconnect never removes another's entry. */
export const presenceField = (instanceId: string, socketId: string) => `${instanceId}/${socketId}`;
/**
 * How long a gateway's liveness key lives without a heartbeat (refreshed every third of it): the
 * sockets of a gateway that died without cleaning up stop counting within this.
 */
export const PRESENCE_TTL_MS = 10_000;
