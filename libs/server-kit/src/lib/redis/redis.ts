import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { queuePrefix } from '@mate/contracts';

export const REDIS = Symbol('REDIS');
/** The connection a service's own BullMQ queues share (event maintenance, readiness). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/** A connection to one Redis server or to a Redis Cluster (REDIS_CLUSTER_NODES set). */
export type RedisClient = Redis | Cluster;

/**
 * Where Redis is: a service's env (`REDIS_URL`, `REDIS_CLUSTER_NODES`), a kit component's options
 * (`redisUrl`, `redisClusterNodes`), or a URL alone (one server: tests, tools).
 */
export type RedisSource =
  | string
  | { REDIS_URL: string; REDIS_CLUSTER_NODES?: string }
  | { redisUrl: string; redisClusterNodes?: string };

interface RedisTarget {
  url: string;
  /** The cluster's seed nodes; none for one server. */
  seeds: Array<{ host: string; port: number }>;
}

function targetOf(source: RedisSource): RedisTarget {
  if (typeof source === 'string') return { url: source, seeds: [] };
  const [url, nodes] = 'REDIS_URL' in source ? [source.REDIS_URL, source.REDIS_CLUSTER_NODES] : [source.redisUrl, source.redisClusterNodes];
  return { url, seeds: parseClusterNodes(nodes) };
}

/** `host:port,host:port` as ioredis's seed list; blank or unset is none. */
export function parseClusterNodes(nodes: string | undefined): Array<{ host: string; port: number }> {
  if (!nodes?.trim()) return [];
  return nodes
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean)
    .map((node) => {
      const colon = node.lastIndexOf(':');
      const host = node.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
      const port = Number(node.slice(colon + 1));
      if (colon <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) {
        throw new Error(`REDIS_CLUSTER_NODES: "${node}" is not host:port`);
      }
      return { host, port };
    });
}

/** Whether `source` names a Redis Cluster. */
export function isRedisCluster(source: RedisSource): boolean {
  return targetOf(source).seeds.length > 0;
}

/** Whether a connection is a Cluster client (key layout and batching differ there). */
export function isClusterClient(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true;
}

/**
 * What each kind of connection needs:
 * - command: requests' reads and writes; fails fast (2 retries) so a request answers 503, not hangs;
 * - queue: BullMQ queues and workers, and blocking readers (XREAD BLOCK, XREADGROUP BLOCK): retry
 *   forever (BullMQ requires `maxRetriesPerRequest: null`), no ready check;
 * - relay: the outbox relay's publishing connection: no offline queue, one retry, so a publish while
 *   Redis is down rejects at once and the relay backs off (the outbox keeps the rows);
 * - adapter: the socket.io streams adapter's publisher, and the reader and subscriber it duplicates
 *   from it: a command connection's (as when it was a duplicate of the gateway's command connection).
 */
export type RedisConnectionKind = 'command' | 'queue' | 'relay' | 'adapter';

/** How long the relay waits for Redis to accept a connection before trying again. */
const RELAY_CONNECT_TIMEOUT_MS = 2_000;

const KIND_OPTIONS: Record<RedisConnectionKind, RedisOptions> = {
  command: { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false },
  queue: { maxRetriesPerRequest: null, enableReadyCheck: false },
  relay: {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: RELAY_CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  },
  adapter: { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false },
};

/**
 * Cluster-wide behaviour per kind. A command retried on MOVED/ASK/CLUSTERDOWN waits for the slot
 * map to settle after a failover (node timeout + election, about 2-3 s); the relay's one fails at
 * once like its single-server twin and the outbox tries the batch again.
 */
const CLUSTER_KIND_OPTIONS: Record<RedisConnectionKind, ClusterOptions> = {
  command: { enableOfflineQueue: true, retryDelayOnFailover: 200, retryDelayOnClusterDown: 300, maxRedirections: 16 },
  queue: { enableOfflineQueue: true, enableReadyCheck: false, retryDelayOnFailover: 200, retryDelayOnClusterDown: 300, maxRedirections: 32 },
  relay: { enableOfflineQueue: false, retryDelayOnFailover: 200, retryDelayOnClusterDown: 300, maxRedirections: 16 },
  adapter: { enableOfflineQueue: true, retryDelayOnFailover: 200, retryDelayOnClusterDown: 300, maxRedirections: 16 },
};

/** Credentials and TLS of `REDIS_URL`, for the cluster's nodes (the host and port are the seeds'). */
function credentialsOf(url: string): RedisOptions {
  const parsed = new URL(url);
  const options: RedisOptions = {};
  if (parsed.username) options.username = decodeURIComponent(parsed.username);
  if (parsed.password) options.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return options;
}

/**
 * The one way the kit and the services open a Redis connection: one server from `REDIS_URL`, or,
 * when `REDIS_CLUSTER_NODES` is set, an ioredis Cluster seeded by those nodes (credentials from
 * `REDIS_URL`). `options` add to the kind's (a node's options, on a cluster).
 */
export function createRedisConnection(url: string, kind: RedisConnectionKind, options?: RedisOptions): Redis;
export function createRedisConnection(source: RedisSource, kind: RedisConnectionKind, options?: RedisOptions): RedisClient;
export function createRedisConnection(source: RedisSource, kind: RedisConnectionKind, options: RedisOptions = {}): RedisClient {
  const { url, seeds } = targetOf(source);
  const nodeOptions: RedisOptions = { ...KIND_OPTIONS[kind], ...options };
  if (seeds.length === 0) return new Redis(url, nodeOptions);
  const { enableAutoPipelining, ...redisOptions } = nodeOptions;
  // A node's reconnection is the cluster's business (it drops a failed node and refreshes its slot
  // map); a node retrying on its own would hold commands for a master that is gone.
  delete redisOptions.retryStrategy;
  return new Cluster(seeds, {
    ...CLUSTER_KIND_OPTIONS[kind],
    ...(enableAutoPipelining ? { enableAutoPipelining } : {}),
    redisOptions: { ...credentialsOf(url), ...redisOptions },
  });
}

/**
 * A new connection like `client` (a server's or a cluster's), with `options` added (a node's options,
 * on a cluster): a subscriber, a blocking reader. ioredis's own `duplicate` takes a cluster's seed
 * nodes first, so `client.duplicate(options)` would be wrong on a cluster.
 */
export function duplicateConnection(client: RedisClient, options: RedisOptions = {}): RedisClient {
  if (isClusterClient(client)) {
    return client.duplicate([], { redisOptions: { ...client.options.redisOptions, ...options } });
  }
  return client.duplicate(options);
}

/** A command connection (fails fast while Redis is down, so requests answer 503 rather than hang). */
export function createRedis(url: string, options?: RedisOptions): Redis;
export function createRedis(source: RedisSource, options?: RedisOptions): RedisClient;
export function createRedis(source: RedisSource, options: RedisOptions = {}): RedisClient {
  return createRedisConnection(source, 'command', options);
}

/** A connection for BullMQ workers and queues, and for blocking readers, which must retry forever. */
export function createQueueConnection(url: string): Redis;
export function createQueueConnection(source: RedisSource): RedisClient;
export function createQueueConnection(source: RedisSource): RedisClient {
  return createRedisConnection(source, 'queue');
}

/** contracts' `queuePrefix` from a service's env: what every producer, worker and view of `queue` passes to BullMQ. */
export function queuePrefixOf(env: { KEY_PREFIX: string; REDIS_CLUSTER_NODES?: string }, queue: string): string {
  return queuePrefix(env.KEY_PREFIX, queue, isRedisCluster({ REDIS_URL: '', REDIS_CLUSTER_NODES: env.REDIS_CLUSTER_NODES }));
}

export * from './slots';
