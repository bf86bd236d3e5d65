import { randomBytes, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ROLE_MEMBER } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { builtMain, issueSession, runNode, startManaged, type ManagedProcess } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';

/**
 * Starts the built chat-service and gateway (dist/apps/*) as child processes on free ports, kills
 * them like a crash and starts them again on the same ports: the chaos test's and the chat bench's
 * (tools/bench/chat) way to run the chat path for real. Nothing here touches the shared Redis or a
 * database it did not create.
 */

export type ChatProcessName = 'chat-service' | 'gateway';

/** Starts `dist/apps/<name>/main.js` with `env` on a free port; health is `/health/ready` for chat-service, `/health` for the gateway. */
async function startBuiltProcess(name: ChatProcessName, env: Record<string, string>): Promise<ManagedProcess> {
  return startManaged({
    name,
    args: [builtMain(name)],
    env,
    port: await freePort(),
    health: name === 'gateway' ? '/health' : '/health/ready',
  });
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
  await runNode([builtMain('chat-service'), 'migrate'], { ...chatEnv, LOG_LEVEL: 'warn' });
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
