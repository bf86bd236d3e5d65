import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { eventQueueName, INTERNAL_TOKEN_HEADER, SERVICES, type ChatMessageDto, type EventEnvelope } from '@mate/contracts';
import { EVENT_JOB_OPTIONS, SOCKET_EVENTS_PATH } from '@mate/server-kit';
import { call, eventEnvelope, runCommand, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { TEST_INTERNAL_TOKEN, type SafetyMember, type SafetyTestBed } from './safety-test-bed';

const CHAT_MAIN = 'apps/chat-service/src/main.ts';

/**
 * The real chat-service beside a safety test bed: its own process (from source) and database,
 * sharing safety's Redis, key prefix and session secret as one deployment would, on the port the
 * bed was told chat answers at (`CHAT_SERVICE_URL`). Its event queue is reachable, so a test plays
 * matching's relay (`matchInChat`) or stops chat hearing events at all (`events.pause()`).
 */
export interface RealChat {
  process: ServiceProcess;
  events: Queue;
  /** As matching's relay would: match.created onto chat's event queue. */
  matchInChat(a: SafetyMember, b: SafetyMember, pairVersion?: number): Promise<void>;
  /** As the gateway delivers a socket's send_message to chat. */
  send(from: SafetyMember, to: SafetyMember, content: string): Promise<{ status: number; body: ChatMessageDto & { error?: string } }>;
  close(): Promise<void>;
}

export async function startRealChat(t: SafetyTestBed, port: number, databaseName: string): Promise<RealChat> {
  const database: TestDatabase = await createTestDatabase(databaseName);
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: t.bed.env.REDIS_URL,
    KEY_PREFIX: t.bed.env.KEY_PREFIX,
    JWT_SECRET: t.bed.env.JWT_SECRET,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    OUTBOX_POLL_MS: '50',
    CHAT_MESSAGES_PER_10_SECONDS: '1000',
  };
  await runCommand(CHAT_MAIN, 'migrate', env);
  const chat = await startServiceProcess(CHAT_MAIN, port, env, { health: '/health/ready' });
  const events = new Queue(eventQueueName(SERVICES.chat), { connection: { url: t.bed.env.REDIS_URL }, prefix: t.bed.env.KEY_PREFIX });
  return {
    process: chat,
    events,
    async matchInChat(a, b, pairVersion) {
      const envelope: EventEnvelope<'match.created'> = eventEnvelope(SERVICES.matching, 'match.created', {
        matchId: randomUUID(),
        userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
        createdAt: new Date().toISOString(),
        ...(pairVersion === undefined ? {} : { pairVersion }),
      });
      await events.add(envelope.name, envelope, { ...EVENT_JOB_OPTIONS, jobId: envelope.id });
    },
    send: (from, to, content) =>
      call<ChatMessageDto & { error?: string }>(chat.url, 'POST', `${SOCKET_EVENTS_PATH}/send_message`, {
        token: from.token,
        headers: { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN },
        body: { recipientId: to.userId, content },
      }),
    async close() {
      await events.resume();
      await events.close();
      await chat.stop();
      await database.drop();
    },
  };
}
