import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ROLE_MEMBER } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { issueSession } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';

/**
 * Starts the built chat-service and gateway (dist/apps/*) as child processes on free ports, kills
 * them like a crash and starts them again on the same ports: the chaos test's and the chat bench's
 * (tools/bench/chat) way to run the chat path for real. Nothing here touches the shared Redis or a
 * database it did not create.
 */

export const WORKSPACE = path.resolve(__dirname, '../../..');

/** How long a started process may take to answer its health check. */
const START_TIMEOUT_MS = 60_000;

export type ChatProcessName = 'chat-service' | 'gateway';

/** One service process that can be killed (SIGKILL) and started again on the same port. */
export interface ManagedProcess {
  name: ChatProcessName;
  port: number;
  url: string;
  /** The running process's id, or null while it is down. */
  readonly pid: number | null;
  /** Kills it at once (SIGKILL, like a crash) and resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again (same port, same environment) and resolves once it answers its health check. */
  start(): Promise<void>;
  /** Ends it gently (SIGTERM, then SIGKILL after 8 s). */
  stop(): Promise<void>;
  /** The last output of the process (for a failing test's message). */
  output(): string;
}

const MAX_OUTPUT = 20_000;

/**
 * The service processes this process started and that still run. Should it end without stopping
 * them (a crash, a test runner killed, an interrupted bench), they are killed with it, by pid,
 * rather than left listening on their ports.
 */
const living = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of living) c.kill('SIGKILL');
  });
}

function mainOf(name: ChatProcessName): string {
  const main = path.join(WORKSPACE, 'dist/apps', name, 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: build it first (nx build ${name})`);
  return main;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Starts `dist/apps/<name>/main.js` with `env` on `port`; health is `/health/ready` for services, `/health` for the gateway. */
export async function startBuiltProcess(
  name: ChatProcessName,
  env: Record<string, string>,
  port?: number,
): Promise<ManagedProcess> {
  const main = mainOf(name);
  const chosenPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${chosenPort}`;
  const health = `${url}${name === 'gateway' ? '/health' : '/health/ready'}`;
  let child: ChildProcess | null = null;
  let output = '';

  const managed: ManagedProcess = {
    name,
    port: chosenPort,
    url,
    get pid() {
      return child?.pid ?? null;
    },
    async start() {
      if (child) return;
      const started = spawn(process.execPath, [main], {
        cwd: WORKSPACE,
        env: { ...process.env, ...env, PORT: String(chosenPort), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      killOnExit(started);
      const collect = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-MAX_OUTPUT);
      };
      started.stdout?.on('data', collect);
      started.stderr?.on('data', collect);
      started.once('exit', () => {
        if (child === started) child = null;
      });
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!(await answers(health))) {
        if (child !== started) throw new Error(`${name} exited at start:\n${output}`);
        if (Date.now() > deadline) {
          await managed.kill();
          throw new Error(`${name} did not answer ${health} within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      if (child === running) child = null;
    },
    async stop() {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      const force = setTimeout(() => running.kill('SIGKILL'), 8_000);
      running.kill('SIGTERM');
      await exited;
      clearTimeout(force);
      if (child === running) child = null;
    },
    output: () => output,
  };
  await managed.start();
  return managed;
}

/** Runs `main.js migrate` of a built service to completion. */
export async function migrateBuilt(name: 'chat-service', env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [mainOf(name), 'migrate'], {
    cwd: WORKSPACE,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${name} migrate exited with ${code}:\n${output}`);
}

export interface ChatPlatformOptions {
  redisUrl: string;
  databaseUrl: string;
  keyPrefix?: string;
  jwtSecret?: string;
  internalToken?: string;
  /** Extra or overriding variables for chat-service / the gateway. */
  chatEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
}

export interface ChatPlatform {
  chat: ManagedProcess;
  gateway: ManagedProcess;
  redisUrl: string;
  databaseUrl: string;
  keyPrefix: string;
  jwtSecret: string;
  /** Ends both processes (gateway first). */
  stop(): Promise<void>;
}

/**
 * Migrates chat's database, then starts chat-service and the gateway in front of it, with limits
 * high enough for load (the bench and the chaos test are one or a few addresses).
 */
export async function startChatPlatform(options: ChatPlatformOptions): Promise<ChatPlatform> {
  const keyPrefix = options.keyPrefix ?? `chaos${randomBytes(3).toString('hex')}`;
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString('hex');
  const internalToken = options.internalToken ?? randomBytes(32).toString('hex');
  const common = {
    NODE_ENV: 'production',
    REDIS_URL: options.redisUrl,
    KEY_PREFIX: keyPrefix,
    JWT_SECRET: jwtSecret,
    INTERNAL_TOKEN: internalToken,
    LOG_LEVEL: 'warn',
  };
  const chatEnv = {
    ...common,
    DATABASE_URL: options.databaseUrl,
    CHAT_MESSAGES_PER_10_SECONDS: '1000000',
    ...options.chatEnv,
  };
  await migrateBuilt('chat-service', chatEnv);
  const chat = await startBuiltProcess('chat-service', chatEnv);
  let gateway: ManagedProcess;
  try {
    gateway = await startBuiltProcess('gateway', {
      ...common,
      CHAT_SERVICE_URL: chat.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      SOCKET_EVENTS_PER_10_SECONDS: '1000000',
      SOCKET_MAX_EVENTS_IN_FLIGHT: '1000',
      SOCKET_MAX_PER_USER: '1000',
      MAX_CONCURRENT_PER_CLIENT: '100000',
      ...options.gatewayEnv,
    });
  } catch (e) {
    await chat.stop();
    throw e;
  }
  return {
    chat,
    gateway,
    redisUrl: options.redisUrl,
    databaseUrl: options.databaseUrl,
    keyPrefix,
    jwtSecret,
    async stop() {
      await gateway.stop();
      await chat.stop();
    },
  };
}

export interface ChatMemberSession {
  userId: string;
  sessionId: string;
  token: string;
}

/** Mints live sessions of verified members in the platform's Redis, as auth-service would. */
export async function signInMembers(
  platform: Pick<ChatPlatform, 'redisUrl' | 'keyPrefix' | 'jwtSecret'>,
  count: number,
): Promise<ChatMemberSession[]> {
  const redis = new Redis(platform.redisUrl, { maxRetriesPerRequest: 2 });
  try {
    const store = new SessionStore(redis, platform.keyPrefix);
    const out: ChatMemberSession[] = [];
    for (let i = 0; i < count; i++) {
      const s = await issueSession(store, platform.jwtSecret, randomUUID(), ROLE_MEMBER);
      out.push({ userId: s.userId, sessionId: s.sessionId, token: s.token });
    }
    return out;
  } finally {
    redis.disconnect();
  }
}

/**
 * Opens the pairs' conversations the way chat's match.created handler does (one row per pair,
 * member_a < member_b), straight in chat's database.
 */
export async function openConversations(databaseUrl: string, pairs: [string, string][]): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (const [x, y] of pairs) {
      const [a, b] = x < y ? [x, y] : [y, x];
      const matchId = randomUUID();
      await db.query(
        `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at) VALUES ($1, $2, $3, $1, now())
         ON CONFLICT (member_a, member_b) DO NOTHING`,
        [matchId, a, b],
      );
    }
  } finally {
    await db.end();
  }
}
