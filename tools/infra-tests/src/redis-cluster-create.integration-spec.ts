import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@mate/server-kit/testing';
import { rootPath } from './lib/workspace';

/**
 * Issue 29: overlays/distributed-data's Job creates its Redis Cluster with
 * redis-cluster/create-cluster.sh. Here the script runs, as the Job runs it (REDIS_NODES,
 * CLUSTER_REPLICAS, REDISCLI_AUTH), against six redis-server processes of the test's own in
 * cluster mode on loopback ports: it creates three masters with one replica each, changes nothing
 * when run again, and brings back a node that lost its data as a replica.
 */
const SCRIPT = rootPath('k8s/overlays/distributed-data/redis-cluster/create-cluster.sh');
const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';
const PASSWORD = 'create-cluster-test';
const BUS_OFFSET = 10_000;
const run = promisify(execFile);

jest.setTimeout(90_000);

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port whose cluster bus port (+10000) is free too, both below the ephemeral range. */
async function freeNodePort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 2_700);
    if (taken.has(port)) continue;
    if ((await canListen(port)) && (await canListen(port + BUS_OFFSET))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

interface Node {
  port: number;
  dir: string;
  process?: ChildProcess;
}

const cli = async (port: number, ...args: string[]) =>
  (
    await run(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], {
      env: { ...process.env, REDISCLI_AUTH: PASSWORD },
    })
  ).stdout;

async function start(node: Node) {
  node.process = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(node.port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      path.join(node.dir, 'nodes.conf'),
      '--cluster-node-timeout',
      '2000',
      '--dir',
      node.dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--requirepass',
      PASSWORD,
      '--masterauth',
      PASSWORD,
    ],
    { stdio: 'ignore' },
  );
  await waitFor(async () => (await cli(node.port, 'ping').catch(() => '')).trim() === 'PONG', { timeoutMs: 20_000, intervalMs: 100, what: `node ${node.port} answering` });
}

async function stop(node: Node) {
  const child = node.process;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Runs the script as the Job does; resolves with its status and output. */
function createCluster(nodes: Node[]) {
  return new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn('sh', [SCRIPT], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        REDIS_NODES: nodes.map((n) => `127.0.0.1:${n.port}`).join(' '),
        CLUSTER_REPLICAS: '1',
        REDISCLI_AUTH: PASSWORD,
        WAIT_SECONDS: '60',
      },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (status) => resolve({ status, output }));
  });
}

/** `id role master-id slots` of every node the first live node knows, sorted by port. */
async function layout(port: number) {
  const lines = (await cli(port, 'cluster', 'nodes')).trim().split('\n');
  return lines
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(' ');
      return {
        id,
        port: Number(/:(\d+)@/.exec(address)?.[1]),
        role: flags.includes('master') ? 'master' : 'replica',
        master: master === '-' ? undefined : master,
        noaddr: flags.includes('noaddr'),
        slots: slots.join(' '),
      };
    })
    .sort((a, b) => a.port - b.port);
}

/**
 * The layout once the cluster's gossip has settled: a replica is announced as one a moment after
 * `redis-cli --cluster create` returns (each node learns it from the others), so the layout is
 * read until it shows three replicas of masters (30 s at most).
 */
async function settledLayout(port: number) {
  return waitFor(
    async () => {
      const known = await layout(port);
      return known.filter((n) => n.role === 'replica' && n.master).length === 3 && known;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: 'three replicas announced' },
  );
}

const slotCount = (slots: string) =>
  slots
    .split(' ')
    .filter(Boolean)
    .reduce((sum, range) => {
      const [from, to] = range.split('-').map(Number);
      return sum + (to === undefined ? 1 : to - from + 1);
    }, 0);

describe('k8s overlays/distributed-data: redis-cluster/create-cluster.sh against six real Redis nodes', () => {
  const nodes: Node[] = [];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'create-cluster-'));

  beforeAll(async () => {
    expect(fs.existsSync(REDIS_SERVER)).toBe(true);
    const taken = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const port = await freeNodePort(taken);
      taken.add(port);
      const dir = path.join(root, String(port));
      fs.mkdirSync(dir);
      nodes.push({ port, dir });
    }
    await Promise.all(nodes.map(start));
  });

  afterAll(async () => {
    await Promise.all(nodes.map(stop));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates three masters holding all 16384 slots, each with one replica', async () => {
    const result = await createCluster(nodes);
    expect({
      status: result.status,
      created: result.output.includes('creating a cluster of 6 nodes'),
    }).toEqual({ status: 0, created: true });
    const known = await settledLayout(nodes[0].port);
    const masters = known.filter((n) => n.role === 'master');
    expect(known).toHaveLength(6);
    expect(masters).toHaveLength(3);
    expect(masters.reduce((sum, m) => sum + slotCount(m.slots), 0)).toBe(16_384);
    for (const m of masters) expect(known.filter((n) => n.master === m.id)).toHaveLength(1);
    for (const n of nodes) expect(await cli(n.port, 'cluster', 'info')).toContain('cluster_state:ok');
  });

  it('run again, changes nothing', async () => {
    const before = await settledLayout(nodes[0].port);
    const result = await createCluster(nodes);
    expect({
      status: result.status,
      created: result.output.includes('creating'),
      added: result.output.includes('adding'),
    }).toEqual({
      status: 0,
      created: false,
      added: false,
    });
    expect(await settledLayout(nodes[0].port)).toEqual(before);
  });

  it('adds a node that lost its data back as a replica and forgets its old identity', async () => {
    const before = await layout(nodes[0].port);
    const lost = nodes.find((n) => before.find((k) => k.port === n.port)?.role === 'replica') as Node;
    await stop(lost);
    fs.rmSync(path.join(lost.dir, 'nodes.conf'));
    await start(lost);

    const result = await createCluster(nodes);
    expect({
      status: result.status,
      added: result.output.includes(`127.0.0.1:${lost.port} has no cluster`),
    }).toEqual({ status: 0, added: true });
    await waitFor(async () => {
      const known = await layout(nodes[0].port);
      return (
        known.length === 6 &&
        !known.some((n) => n.noaddr) &&
        known.filter((n) => n.role === 'master').length === 3 &&
        known.find((n) => n.port === lost.port)?.role === 'replica'
      );
    }, { timeoutMs: 20_000, intervalMs: 100, what: 'the lost node a replica again in a cluster of six' });
    const known = await layout(nodes[0].port);
    expect(known.find((n) => n.port === lost.port)?.id).not.toBe(
      before.find((n) => n.port === lost.port)?.id,
    );
    for (const m of known.filter((n) => n.role === 'master'))
      expect(known.filter((n) => n.master === m.id)).toHaveLength(1);
  });
});
