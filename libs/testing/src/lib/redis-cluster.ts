import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import { canListen } from './maildev';

const run = promisify(execFile);

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';
const NODE_COUNT = 6;
const SLOT_COUNT = 16_384;
/** How long a node is unreachable before the others mark it failed and its replica takes over. */
const NODE_TIMEOUT_MS = 1_500;
/** How long the cluster may take to start, or to recover after a kill. */
const READY_TIMEOUT_MS = 30_000;
/**
 * Ports are chosen in [20000, 22768): a cluster node also listens on port + 10000 (its bus), and
 * both must lie below the ephemeral range (32768 on Linux) so nothing else takes them meanwhile.
 */
const PORT_FROM = 20_000;
const PORT_TO = 22_768;
const BUS_OFFSET = 10_000;

export interface RedisClusterNode {
  port: number;
  pid: number;
  /** As the cluster said when it was last asked (start, or `waitUntilHealthy`). */
  role: 'master' | 'replica';
  /** False once killed. */
  alive: boolean;
}

/**
 * A Redis Cluster of the test's own (3 masters, 3 replicas) on free loopback ports: never the shared
 * Redis on 6379. Cluster tests kill its masters to check failover.
 */
export interface OwnRedisCluster {
  /** `host:port,host:port,...`, the value of `REDIS_CLUSTER_NODES`. */
  seeds: string;
  nodes: RedisClusterNode[];
  /** SIGKILLs that node's process (a crash) and waits until it has exited. */
  kill(port: number): Promise<void>;
  /** The master that serves the slot of `key` now. */
  masterOf(key: string): Promise<RedisClusterNode>;
  /**
   * Waits until every live node says `cluster_state:ok`, every slot is served by a live master and
   * every live replica is in sync with its master (so it can take over when its master is killed).
   */
  waitUntilHealthy(timeoutMs?: number): Promise<void>;
  /** Kills its own processes (by pid) and deletes its data. */
  stop(): Promise<void>;
}

async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = randomInt(PORT_FROM, PORT_TO);
    if (taken.has(port)) continue;
    if ((await canListen(port)) && (await canListen(port + BUS_OFFSET))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5_000 });
  return stdout;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Redis Cluster: ${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface NodeLine {
  port: number;
  role: 'master' | 'replica';
  failed: boolean;
  slots: number;
  ranges: Array<[number, number]>;
}

/** `CLUSTER NODES` as one node sees it. */
async function clusterNodes(port: number): Promise<NodeLine[]> {
  const text = await cli(port, 'cluster', 'nodes');
  return text
    .trim()
    .split('\n')
    .map((line) => {
      // <id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges...>
      const fields = line.split(' ');
      const address = fields[1];
      const flags = fields[2];
      const slots = fields.slice(8);
      // A range is `from-to` or one slot; `[slot->-node]` marks a slot being migrated.
      const ranges = slots
        .filter((range) => !range.startsWith('['))
        .map((range): [number, number] => {
          const [from, to] = range.split('-').map(Number);
          return [from, to ?? from];
        });
      return {
        port: Number(address.split('@')[0].split(':')[1]),
        role: flags.includes('master') ? ('master' as const) : ('replica' as const),
        // `fail?` is one node's suspicion, `fail` the cluster's verdict: either way not to be counted on.
        failed: flags.includes('fail'),
        slots: ranges.reduce((n, [from, to]) => n + to - from + 1, 0),
        ranges,
      };
    });
}

export async function startRedisCluster(): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'mate-redis-cluster-'));
  const children = new Map<number, ChildProcess>();
  const nodes: RedisClusterNode[] = [];
  const killAllOnExit = () => {
    for (const child of children.values()) child.kill('SIGKILL');
  };
  // A test process that dies takes its cluster with it.
  process.once('exit', killAllOnExit);

  const taken = new Set<number>();
  try {
    for (let i = 0; i < NODE_COUNT; i++) {
      const port = await freeClusterPort(taken);
      taken.add(port);
      const child = spawn(
        REDIS_SERVER,
        [
          '--bind', '127.0.0.1',
          '--port', String(port),
          '--dir', dir,
          '--cluster-enabled', 'yes',
          '--cluster-config-file', join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout', String(NODE_TIMEOUT_MS),
          '--appendonly', 'yes',
          '--appendfilename', `appendonly-${port}.aof`,
          '--appenddirname', `aof-${port}`,
          '--save', '',
        ],
        { stdio: 'ignore' },
      );
      if (child.pid === undefined) throw new Error(`redis-server on ${port} did not start`);
      children.set(port, child);
      child.once('exit', () => {
        const node = nodes.find((n) => n.port === port);
        if (node) node.alive = false;
      });
      nodes.push({ port, pid: child.pid, role: 'master', alive: true });
    }
    for (const node of nodes) {
      await until(async () => (await cli(node.port, 'ping')).trim() === 'PONG', `node ${node.port} answering`, READY_TIMEOUT_MS);
    }
    await run(
      REDIS_CLI,
      ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { timeout: READY_TIMEOUT_MS },
    );
  } catch (err) {
    killAllOnExit();
    process.removeListener('exit', killAllOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const cluster: OwnRedisCluster = {
    seeds: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    nodes,
    async kill(port) {
      const child = children.get(port);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async masterOf(key) {
      const live = nodes.find((n) => n.alive);
      if (!live) throw new Error('Redis Cluster: no live node');
      const slot = Number((await cli(live.port, 'cluster', 'keyslot', key)).trim());
      for (const line of await clusterNodes(live.port)) {
        if (line.role !== 'master' || line.failed || !line.ranges.some(([from, to]) => slot >= from && slot <= to)) continue;
        const node = nodes.find((n) => n.port === line.port);
        if (node) return node;
      }
      throw new Error(`Redis Cluster: no master serves slot ${slot}`);
    },
    async waitUntilHealthy(timeoutMs = READY_TIMEOUT_MS) {
      await until(
        async () => {
          const live = nodes.filter((n) => n.alive);
          for (const node of live) {
            const info = await cli(node.port, 'cluster', 'info');
            if (!/cluster_state:ok/.test(info)) return false;
            if (!new RegExp(`cluster_slots_ok:${SLOT_COUNT}\\b`).test(info)) return false;
          }
          // Every slot served by a master every live node agrees is up.
          const seen = await clusterNodes(live[0].port);
          const livePorts = new Set(live.map((n) => n.port));
          const served = seen.filter((l) => l.role === 'master' && !l.failed && livePorts.has(l.port)).reduce((n, l) => n + l.slots, 0);
          if (served !== SLOT_COUNT) return false;
          // Right after `--cluster create` a replica is still seen as a master without slots until
          // the gossip carries its CLUSTER REPLICATE: every live node must be a serving master or a replica.
          if (seen.some((l) => livePorts.has(l.port) && l.role === 'master' && l.slots === 0)) return false;
          // A replica that has not finished its first sync with its master cannot take over from it.
          for (const line of seen.filter((l) => l.role === 'replica' && livePorts.has(l.port))) {
            if (!/master_link_status:up/.test(await cli(line.port, 'info', 'replication'))) return false;
          }
          for (const line of seen) {
            const node = nodes.find((n) => n.port === line.port);
            if (node) node.role = line.role;
          }
          return true;
        },
        'cluster_state:ok with every slot served',
        timeoutMs,
      );
    },
    async stop() {
      await Promise.all(nodes.map((n) => cluster.kill(n.port)));
      process.removeListener('exit', killAllOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.waitUntilHealthy();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** An ioredis client of the cluster's, for a test's own checks. */
export function clusterProbe(seeds: string): Cluster {
  return new Cluster(
    seeds.split(',').map((seed) => {
      const [host, port] = seed.split(':');
      return { host, port: Number(port) };
    }),
    { redisOptions: { maxRetriesPerRequest: 2 } },
  );
}
