import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { ContainerRuntimeClient, GenericContainer } from 'testcontainers';
import { Client } from 'pg';
import Redis from 'ioredis';
import { freePort } from './maildev';

/**
 * `TESTCONTAINERS`: `on` = containers, and an error when no engine answers; `off` = the local
 * servers; `auto` (the default) = containers whenever an engine answers (docs/adr/0021).
 */
export type ContainerPolicy = 'auto' | 'on' | 'off';
export type ContainerNetworkMode = 'host' | 'bridge';

/** Every container the test infrastructure starts carries this label (value: the test process's id). */
export const TEST_INFRA_LABEL = 'dev.mate.test-infra';
/** And this one when TEST_INFRA_RUN names the run (the testcontainers CI stage counts by it). */
export const TEST_INFRA_RUN_LABEL = 'dev.mate.test-infra.run';

const DEFAULT_POSTGRES_IMAGE = 'postgres:16-alpine';
const DEFAULT_REDIS_IMAGE = 'redis:7-alpine';
/** A cold PostgreSQL (initdb) on a busy 2-core CI machine takes tens of seconds. */
const STARTUP_TIMEOUT_MS = 180_000;
const PROBE_TIMEOUT_MS = 2_000;

export interface ContainerInfra {
  postgresAdminUrl: string;
  redisUrl: string;
  networkMode: ContainerNetworkMode;
  containerIds: string[];
  /** Whether this process's containers were started by an earlier test file and are reused. */
  reused: boolean;
  stop(): Promise<void>;
}

export function containerPolicy(): ContainerPolicy {
  const value = (process.env.TESTCONTAINERS ?? 'auto').trim().toLowerCase() || 'auto';
  if (value === 'auto' || value === 'on' || value === 'off') return value;
  throw new Error(`TESTCONTAINERS must be auto, on or off, not "${process.env.TESTCONTAINERS}"`);
}

function networkModeSetting(): ContainerNetworkMode | 'auto' {
  const value = (process.env.TESTCONTAINERS_NETWORK_MODE ?? 'auto').trim().toLowerCase() || 'auto';
  if (value === 'auto' || value === 'host' || value === 'bridge') return value;
  throw new Error(
    `TESTCONTAINERS_NETWORK_MODE must be auto, host or bridge, not "${process.env.TESTCONTAINERS_NETWORK_MODE}"`,
  );
}

/**
 * Whether testcontainers could find a container engine at all: the places its strategies look
 * (DOCKER_HOST, ~/.testcontainers.properties, the Docker sockets). Where there is none, loading
 * testcontainers to hear so costs ~0.8 s per test file (each one loads it afresh), several seconds
 * on a busy machine, and it is spent inside the suite's beforeAll.
 */
export function containerEngineConfigured(): boolean {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return true;
  if (process.env.DOCKER_HOST) return true;
  const home = homedir();
  const places = [
    join(home, '.testcontainers.properties'),
    '/var/run/docker.sock',
    ...(process.env.XDG_RUNTIME_DIR ? [join(process.env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
    join(home, '.docker', 'run', 'docker.sock'),
    join(home, '.docker', 'desktop', 'docker.sock'),
    join('/run', 'user', String(userInfo().uid), 'docker.sock'),
  ];
  return places.some((place) => existsSync(place));
}

/**
 * The engine's client, or a rejection saying why there is none. Inside a container testcontainers
 * looks the engine's address up on the engine's `bridge` network; an engine started without one
 * (`--bridge=none`, host networking only) fails that lookup although it answers on 127.0.0.1, so
 * the lookup is retried with that address.
 */
export async function containerRuntime(): Promise<ContainerRuntimeClient> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  if (networkModeSetting() === 'host') process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    if (process.env.TESTCONTAINERS_HOST_OVERRIDE !== undefined) throw error;
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
    try {
      return await getContainerRuntimeClient();
    } catch {
      delete process.env.TESTCONTAINERS_HOST_OVERRIDE;
      throw error;
    }
  }
}

export function containerImages() {
  return {
    postgres: process.env.TESTCONTAINERS_POSTGRES_IMAGE || DEFAULT_POSTGRES_IMAGE,
    redis: process.env.TESTCONTAINERS_REDIS_IMAGE || DEFAULT_REDIS_IMAGE,
  };
}

/** Null when both images are here (or were just pulled), else which one is missing and why. */
export async function missingImage(client: ContainerRuntimeClient): Promise<string | null> {
  const { ImageName } = await import('testcontainers');
  for (const image of Object.values(containerImages())) {
    const name = ImageName.fromString(image);
    if (await client.image.exists(name)) continue;
    try {
      await client.image.pull(name);
    } catch (error) {
      return `${image} is not here and cannot be pulled (${(error as Error).message.trim()})`;
    }
  }
  return null;
}

/** `host` when asked for, or (auto) when the engine has no `bridge` network to publish ports on. */
async function networkMode(client: ContainerRuntimeClient): Promise<ContainerNetworkMode> {
  const setting = networkModeSetting();
  if (setting !== 'auto') return setting;
  try {
    await client.network.getById('bridge').inspect();
    return 'bridge';
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return 'host';
    throw error;
  }
}

/** Where a test process notes the containers it started, so its later test files reuse them. */
function sharedInfraFile(): string {
  return join(tmpdir(), 'mate-test-infra', `${process.pid}.json`);
}

interface SharedInfra {
  postgresAdminUrl: string;
  redisUrl: string;
  networkMode: ContainerNetworkMode;
  containerIds: string[];
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  // disconnectTimeout 0: a failed probe must not hold the process for ioredis's 2 s disconnect timer.
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: PROBE_TIMEOUT_MS,
    disconnectTimeout: 0,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Containers started for the whole Jest run by its global setup (jest-global-setup.ts) are handed
 * to the test processes in this variable.
 */
export const RUN_CONTAINERS_VARIABLE = 'TEST_INFRA_CONTAINERS';

/** Whether this run's global setup or an earlier test file of this process started containers. */
export function containersStarted(): boolean {
  return Boolean(process.env[RUN_CONTAINERS_VARIABLE]) || existsSync(sharedInfraFile());
}

/** The containers the run's global setup or an earlier test file of this process started, when both still answer. */
async function reusableInfra(): Promise<{ shared: SharedInfra; ownedByRun: boolean } | null> {
  const ofRun = process.env[RUN_CONTAINERS_VARIABLE];
  let shared: SharedInfra;
  try {
    shared = JSON.parse(ofRun ?? readFileSync(sharedInfraFile(), 'utf8')) as SharedInfra;
  } catch {
    return null;
  }
  const [pg, redis] = await Promise.all([
    postgresAnswers(shared.postgresAdminUrl),
    redisAnswers(shared.redisUrl),
  ]);
  return pg && redis ? { shared, ownedByRun: Boolean(ofRun) } : null;
}

/**
 * Our own reaper (Ryuk's job, without its image or a published port): a detached process that
 * holds a pipe from this one and, once the pipe closes, that is once this process has ended however
 * it ended, removes the containers labelled with this process's id and the note of them. Jest
 * gives a test file no hook that runs after its last one, and the containers outlive test files.
 */
function startReaper(stateFile: string) {
  const reaper = spawn(
    process.execPath,
    [join(__dirname, 'container-reaper.cjs'), TEST_INFRA_LABEL, String(process.pid), stateFile],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env: { ...process.env },
    },
  );
  reaper.unref();
  const pipe = reaper.stdin as NonNullable<typeof reaper.stdin> & { unref?: () => void };
  pipe.on('error', () => undefined);
  pipe.unref?.();
}

/** Removes this process's containers (all of them: also one whose start failed half-way). */
async function removeOwnContainers(client: ContainerRuntimeClient) {
  const own = await client.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${TEST_INFRA_LABEL}=${process.pid}`] },
  });
  await Promise.all(
    own.map((c) =>
      client.container
        .getById(c.Id)
        .remove({ force: true, v: true })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404) throw error;
        }),
    ),
  );
}

function labels(): Record<string, string> {
  const run = process.env.TEST_INFRA_RUN;
  return { [TEST_INFRA_LABEL]: String(process.pid), ...(run ? { [TEST_INFRA_RUN_LABEL]: run } : {}) };
}

async function postgresContainer(mode: ContainerNetworkMode) {
  const { GenericContainer, Wait } = await import('testcontainers');
  const password = randomBytes(12).toString('hex');
  // Host networking publishes nothing: the server takes a free port of the machine (PGPORT, which
  // the official image's and mate-local's entry points both honour) and listens on loopback only.
  const port = mode === 'host' ? await freePort() : 5432;
  const container: GenericContainer = new GenericContainer(containerImages().postgres)
    .withLabels(labels())
    .withEnvironment({
      POSTGRES_USER: 'postgres',
      POSTGRES_PASSWORD: password,
      POSTGRES_DB: 'postgres',
      PGPORT: String(port),
    })
    // fsync off: a throwaway server need not survive a power cut, and tests run faster without it.
    .withCommand([
      'postgres',
      '-c',
      `listen_addresses=${mode === 'host' ? '127.0.0.1' : '*'}`,
      '-c',
      'fsync=off',
    ])
    // Over TCP only the final server answers: the image's init phase runs it on its socket alone.
    .withWaitStrategy(Wait.forSuccessfulCommand(`pg_isready -h 127.0.0.1 -p ${port} -U postgres`))
    .withStartupTimeout(STARTUP_TIMEOUT_MS);
  if (mode === 'host') container.withNetworkMode('host');
  else container.withExposedPorts(5432);
  const started = await container.start();
  const host = mode === 'host' ? '127.0.0.1' : started.getHost();
  const mappedPort = mode === 'host' ? port : started.getMappedPort(5432);
  return { id: started.getId(), url: `postgres://postgres:${password}@${host}:${mappedPort}/postgres` };
}

async function redisContainer(mode: ContainerNetworkMode) {
  const { GenericContainer, Wait } = await import('testcontainers');
  const port = mode === 'host' ? await freePort() : 6379;
  const network = mode === 'host' ? ['--bind', '127.0.0.1'] : ['--protected-mode', 'no'];
  const container: GenericContainer = new GenericContainer(containerImages().redis)
    .withLabels(labels())
    .withCommand(['redis-server', '--port', String(port), ...network, '--save', '', '--appendonly', 'no'])
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .withStartupTimeout(STARTUP_TIMEOUT_MS);
  if (mode === 'host') container.withNetworkMode('host');
  else container.withExposedPorts(6379);
  const started = await container.start();
  const host = mode === 'host' ? '127.0.0.1' : started.getHost();
  const mappedPort = mode === 'host' ? port : started.getMappedPort(6379);
  return { id: started.getId(), url: `redis://${host}:${mappedPort}` };
}

function containerInfra(shared: SharedInfra, reused: boolean, ownedByRun = false): ContainerInfra {
  return {
    ...shared,
    reused,
    async stop() {
      // The run's containers belong to its global teardown; other test files still use them.
      if (ownedByRun) return;
      rmSync(sharedInfraFile(), { force: true });
      await removeOwnContainers(await containerRuntime());
    },
  };
}

/** The note a global setup hands to the test processes (RUN_CONTAINERS_VARIABLE). */
export function runContainersNote(infra: ContainerInfra): string {
  const shared: SharedInfra = {
    postgresAdminUrl: infra.postgresAdminUrl,
    redisUrl: infra.redisUrl,
    networkMode: infra.networkMode,
    containerIds: infra.containerIds,
  };
  return JSON.stringify(shared);
}

/**
 * PostgreSQL and Redis in containers for this test process: the ones an earlier test file of the
 * process started, else new ones (removed by stop(), or by the reaper when the process ends).
 * Rejects when no engine answers.
 */
export async function startContainerInfra(): Promise<ContainerInfra> {
  const reusable = await reusableInfra();
  if (reusable) return containerInfra(reusable.shared, true, reusable.ownedByRun);

  const client = await containerRuntime();
  const mode = await networkMode(client);
  // Ryuk, testcontainers' reaper, is pulled from Docker Hub and reached on a published port:
  // neither exists on a host-network-only engine. The reaper below does its job.
  if (mode === 'host') process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  const stateFile = sharedInfraFile();
  mkdirSync(join(tmpdir(), 'mate-test-infra'), { recursive: true });
  startReaper(stateFile);

  const results = await Promise.allSettled([postgresContainer(mode), redisContainer(mode)]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await removeOwnContainers(client);
    throw failed.reason;
  }
  const [pg, redis] = results as PromiseFulfilledResult<{ id: string; url: string }>[];
  const shared: SharedInfra = {
    postgresAdminUrl: pg.value.url,
    redisUrl: redis.value.url,
    networkMode: mode,
    containerIds: [pg.value.id, redis.value.id],
  };
  writeFileSync(stateFile, JSON.stringify(shared));
  return containerInfra(shared, false);
}
