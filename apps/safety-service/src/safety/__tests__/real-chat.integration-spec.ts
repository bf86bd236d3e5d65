import type { ReportResultDto } from '@mate/contracts';
import { call, waitFor } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { startRealChat, type RealChat } from '../../__tests__/real-chat-process';
import { startSafetyTestBed, type SafetyTestBed } from '../../__tests__/safety-test-bed';

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
  let chat: RealChat;

  beforeAll(async () => {
    const port = await freePort();
    t = await startSafetyTestBed('safety_real_chat', { env: { CHAT_SERVICE_URL: `http://127.0.0.1:${port}` } });
    chat = await startRealChat(t, port, 'safety_real_chat_chat');
  }, 120_000);

  afterAll(async () => {
    await chat?.close();
    await t?.close();
  }, 60_000);

  it('keeps the last 20 messages of a conversation the block closed', async () => {
    const ann = await t.member({ name: 'Ann' });
    const bob = await t.member({ name: 'Bob' });
    await chat.matchInChat(ann, bob);
    await waitFor(async () => (await chat.send(ann, bob, 'message 0')).status === 200, { timeoutMs: 15_000, what: 'chat to open the conversation' });
    for (let i = 1; i < 22; i++) {
      const res = await chat.send(i % 2 ? bob : ann, i % 2 ? ann : bob, `message ${i}`);
      expect(res.status).toBe(200);
    }

    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);
    // The block reaches chat through safety's outbox relay: the conversation closes for both.
    await waitFor(async () => (await call(chat.process.url, 'GET', `/api/chat/conversation/${ann.userId}`, { token: bob.token })).status === 404, {
      timeoutMs: 10_000,
      what: 'chat to close the conversation',
    });
    expect((await chat.send(bob, ann, 'still there?')).status).toBe(403);

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
