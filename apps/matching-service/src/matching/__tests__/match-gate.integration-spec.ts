import { Queue } from 'bullmq';
import { Client } from 'pg';
import { eventQueueName, INTERNAL_TOKEN_HEADER, SERVICES, type ChatMessageDto, type LikeResultDto } from '@mate/contracts';
import { PairGate, SOCKET_EVENTS_PATH } from '@mate/server-kit';
import { call, runCommand, startServiceProcess, waitFor, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, freePort, type TestDatabase } from '@mate/testing';
import { startMatchingTestBed, type MatchingTestBed, type TestMember } from '../../__tests__/matching-test-bed';

const CHAT_MAIN = 'apps/chat-service/src/main.ts';
const INTERNAL_TOKEN = 'match-gate-internal-token-for-tests';

/**
 * Issue 27: when the like answers `matched: true`, the pair can chat at once (ADR 0029). Matching
 * opens the pair gate with the match after its commit and before its answer; the real chat-service
 * (its own process and database, matching's Redis and key prefix, as one deployment) runs with its
 * event queue paused, so match.created — published by matching's real relay — waits in the queue
 * and only the gate can let the first message through. Then the event is let go and changes nothing.
 */
describe('a match is usable the moment its like answers (real matching, the real chat-service, PostgreSQL, Redis)', () => {
  let bed: MatchingTestBed;
  let gate: PairGate;
  let chatDb: TestDatabase;
  let chat: ServiceProcess;
  let chatEvents: Queue;

  const like = (from: TestMember, to: TestMember) =>
    bed.call<LikeResultDto & { error?: string }>('POST', `/api/matches/like/${to.userId}`, { token: from.token });
  /** As the gateway hands a socket's send_message to chat-service. */
  const send = (from: TestMember, to: TestMember, content: string) =>
    call<ChatMessageDto & { error?: string }>(chat.url, 'POST', `${SOCKET_EVENTS_PATH}/send_message`, {
      token: from.token,
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
      body: { recipientId: to.userId, content },
    });
  const chatQuery = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const db = new Client({ connectionString: chatDb.url });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_match_gate', { env: { INTERNAL_TOKEN } });
    gate = bed.app.get(PairGate);
    chatDb = await createTestDatabase('matching_match_gate_chat');
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: chatDb.url,
      REDIS_URL: bed.env.REDIS_URL,
      KEY_PREFIX: bed.env.KEY_PREFIX,
      JWT_SECRET: bed.env.JWT_SECRET,
      INTERNAL_TOKEN,
      OUTBOX_POLL_MS: '50',
    };
    await runCommand(CHAT_MAIN, 'migrate', env);
    chat = await startServiceProcess(CHAT_MAIN, await freePort(), env, { health: '/health/ready' });
    chatEvents = new Queue(eventQueueName(SERVICES.chat), { connection: { url: bed.env.REDIS_URL }, prefix: bed.env.KEY_PREFIX });
  }, 180_000);

  afterAll(async () => {
    await chatEvents?.resume();
    await chatEvents?.close();
    await chat?.stop();
    await chatDb?.drop();
    await bed?.close();
  }, 60_000);

  it('the first message right after matched: true is stored; match.created, held back until then, adds nothing', async () => {
    const place = bed.place();
    const [ana, ben] = [await bed.member({ ...place, name: 'Ana' }), await bed.member({ ...place, name: 'Ben' })];
    expect((await like(ana, ben)).body).toEqual({ matched: false });
    expect(await gate.read(ana.userId, ben.userId)).toBeNull();

    await chatEvents.pause();
    const matched = await like(ben, ana);
    expect(matched).toMatchObject({ status: 200, body: { matched: true, matchId: expect.any(String) } });
    const { matchId } = matched.body as { matchId: string };
    expect(await gate.read(ben.userId, ana.userId)).toEqual({ version: 0, open: true, match: { matchId, matchedAt: expect.any(Date) } });

    const first = await send(ben, ana, 'hello Ana');
    expect([first.status, first.body.error]).toEqual([200, undefined]);
    expect((await send(ana, ben, 'hi Ben')).body).toMatchObject({ seq: 2 });
    const page = await call<{ messages: ChatMessageDto[] }>(chat.url, 'GET', `/api/chat/conversation/${ben.userId}`, { token: ana.token });
    expect(page.body.messages.map((m) => m.content)).toEqual(['hello Ana', 'hi Ben']);

    // The event was published by matching's relay and is waiting in chat's paused queue: nothing above used it.
    await waitFor(async () => (await chatEvents.getJobs(['waiting'])).some((j) => j.data?.payload?.matchId === matchId), {
      what: 'match.created in chat’s paused queue',
    });
    expect(await chatQuery(`SELECT 1 FROM processed_event WHERE name = 'match.created'`)).toEqual([]);

    await chatEvents.resume();
    await waitFor(async () => (await chatQuery(`SELECT 1 FROM processed_event WHERE name = 'match.created'`)).length === 1, {
      what: 'chat to apply match.created',
    });
    expect(await chatQuery('SELECT id, match_id, last_seq, closed_at FROM conversation')).toEqual([
      { id: matchId, match_id: matchId, last_seq: 2, closed_at: null },
    ]);
    expect((await send(ben, ana, 'still here')).body).toMatchObject({ seq: 3 });
  }, 60_000);

  it('a repeated like answers the match and opens the gate again; a failed gate write is 503 with the match stored', async () => {
    const place = bed.place();
    const [cy, di] = [await bed.member({ ...place, name: 'Cy' }), await bed.member({ ...place, name: 'Di' })];
    await like(cy, di);
    const write = jest.spyOn(gate, 'open').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      const refused = await like(di, cy);
      expect([refused.status, refused.body.error]).toEqual([503, expect.any(String)]);
    } finally {
      write.mockRestore();
    }
    expect(await gate.read(cy.userId, di.userId)).toBeNull();
    // No new_match went out before the gate opened: nobody could act on the match yet.
    expect((await bed.pushes()).filter((p) => p.rooms.some((r) => r.includes(cy.userId)))).toEqual([]);

    const retried = await like(di, cy);
    expect(retried.body).toEqual({ matched: true, matchId: expect.any(String) });
    expect(await gate.read(cy.userId, di.userId)).toMatchObject({ version: 0, open: true, match: { matchId: retried.body.matchId } });
  });

  it('the gate opens at the pair version the match was made under, which ranks above the block before it', async () => {
    const place = bed.place();
    const [ed, flo] = [await bed.member({ ...place, name: 'Ed' }), await bed.member({ ...place, name: 'Flo' })];
    // Flo blocked Ed (pair event 1) and unblocked (2); safety closed the gate at 1.
    await bed.block(flo, ed);
    await gate.close(flo.userId, ed.userId, 1);
    await bed.unblock(flo, ed);
    await like(ed, flo);
    const matched = await like(flo, ed);
    expect(matched.body).toMatchObject({ matched: true });
    expect(await gate.read(ed.userId, flo.userId)).toMatchObject({ version: 2, open: true, match: { matchId: matched.body.matchId } });
  });
});
