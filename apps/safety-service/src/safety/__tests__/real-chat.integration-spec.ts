import { Queue } from 'bullmq';
import {
  eventQueueName,
  INTERNAL_TOKEN_HEADER,
  SERVICES,
  type ChatMessageDto,
  type EventEnvelope,
  type ReportResultDto,
} from '@mate/contracts';
import { EVENT_JOB_OPTIONS, SOCKET_EVENTS_PATH } from '@mate/server-kit';
import {
  call,
  eventEnvelope,
  runCommand,
  startServiceProcess,
  waitFor,
  type ServiceProcess,
} from '@mate/server-kit/testing';
import { createTestDatabase, freePort, type TestDatabase } from '@mate/testing';
import { startSafetyTestBed, TEST_INTERNAL_TOKEN, type SafetyMember, type SafetyTestBed } from '../../__tests__/safety-test-bed';

const CHAT_MAIN = 'apps/chat-service/src/main.ts';

/**
 * The report snapshot against the real chat-service (its own process, from source, on its own
 * database, sharing safety's Redis prefix and session secret as one deployment would): members
 * matched in chat through chat's real event queue, messages sent through chat's real socket-event
 * route (as the gateway delivers them), a block that reaches chat through safety's real outbox
 * relay and closes the conversation, then a report whose snapshot still holds the last 20
 * messages (chat keeps closed history for moderation).
 */
describe('report snapshot from the real chat-service (real PostgreSQL and Redis, two processes)', () => {
  let t: SafetyTestBed;
  let chatDb: TestDatabase;
  let chat: ServiceProcess;
  let chatEvents: Queue;

  beforeAll(async () => {
    const port = await freePort();
    t = await startSafetyTestBed('safety_real_chat', { env: { CHAT_SERVICE_URL: `http://127.0.0.1:${port}` } });
    chatDb = await createTestDatabase('safety_real_chat_chat');
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: chatDb.url,
      REDIS_URL: t.bed.env.REDIS_URL,
      KEY_PREFIX: t.bed.env.KEY_PREFIX,
      JWT_SECRET: t.bed.env.JWT_SECRET,
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      OUTBOX_POLL_MS: '50',
      CHAT_MESSAGES_PER_10_SECONDS: '1000',
    };
    await runCommand(CHAT_MAIN, 'migrate', env);
    chat = await startServiceProcess(CHAT_MAIN, port, env, { health: '/health/ready' });
    chatEvents = new Queue(eventQueueName(SERVICES.chat), { connection: { url: t.bed.env.REDIS_URL }, prefix: t.bed.env.KEY_PREFIX });
  }, 120_000);

  afterAll(async () => {
    await chatEvents?.close();
    await chat?.stop();
    await t?.close();
    await chatDb?.drop();
  }, 60_000);

  /** As matching's relay would: match.created onto chat's event queue. */
  async function matchInChat(a: SafetyMember, b: SafetyMember): Promise<void> {
    const envelope: EventEnvelope<'match.created'> = eventEnvelope(SERVICES.matching, 'match.created', {
      matchId: crypto.randomUUID(),
      userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
      createdAt: new Date().toISOString(),
    });
    await chatEvents.add(envelope.name, envelope, { ...EVENT_JOB_OPTIONS, jobId: envelope.id });
  }

  /** As the gateway delivers a socket's send_message to chat. */
  const send = (from: SafetyMember, to: SafetyMember, content: string) =>
    call<ChatMessageDto & { error?: string }>(chat.url, 'POST', `${SOCKET_EVENTS_PATH}/send_message`, {
      token: from.token,
      headers: { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN },
      body: { recipientId: to.userId, content },
    });

  it('keeps the last 20 messages of a conversation the block closed', async () => {
    const ann = await t.member({ name: 'Ann' });
    const bob = await t.member({ name: 'Bob' });
    await matchInChat(ann, bob);
    await waitFor(async () => (await send(ann, bob, 'message 0')).status === 200, { timeoutMs: 15_000, what: 'chat to open the conversation' });
    for (let i = 1; i < 22; i++) {
      const res = await send(i % 2 ? bob : ann, i % 2 ? ann : bob, `message ${i}`);
      expect(res.status).toBe(200);
    }

    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);
    // The block reaches chat through safety's outbox relay: the conversation closes for both.
    await waitFor(async () => (await call(chat.url, 'GET', `/api/chat/conversation/${ann.userId}`, { token: bob.token })).status === 404, {
      timeoutMs: 10_000,
      what: 'chat to close the conversation',
    });
    expect((await send(bob, ann, 'still there?')).status).toBe(403);

    const res = await t.api<ReportResultDto>(ann, 'POST', `/api/safety/report/${bob.userId}`, { reason: 'harassment' });
    expect(res.status).toBe(201);
    const [report] = await t.bed.dataSource.query('SELECT messages, messages_status FROM report WHERE id = $1', [res.body.id]);
    expect(report.messages_status).toBe('complete');
    expect(report.messages.map((m: { content: string }) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 2}`));
    expect(report.messages[0]).toEqual({
      id: expect.any(String),
      seq: 3,
      senderId: ann.userId,
      recipientId: bob.userId,
      content: 'message 2',
      createdAt: expect.any(String),
    });
  }, 60_000);
});
