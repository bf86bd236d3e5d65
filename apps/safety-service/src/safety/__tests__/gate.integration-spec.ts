import { ChatMessages, INTERNAL_TOKEN_HEADER, type PairMessagesSnapshotDto } from '@mate/contracts';
import type Redis from 'ioredis';
import { PairGate, REDIS } from '@mate/server-kit';
import { call, waitFor } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { startRealChat, type RealChat } from '../../__tests__/real-chat-process';
import { startSafetyTestBed, TEST_INTERNAL_TOKEN, type SafetyMember, type SafetyTestBed } from '../../__tests__/safety-test-bed';

/**
 * Issue 24 item 6: once a block or an unmatch has answered, nothing more from the other member is
 * accepted. safety closes the pair gate (ADR 0024) after its commit and before its answer; the
 * last test runs the real chat-service (its own process and database, safety's Redis and prefix)
 * with its event queue paused, so chat's projection cannot know of the block and only the gate
 * can refuse the message sent right after the block's 200.
 */
describe('safety closes the pair gate before it answers (real PostgreSQL and Redis; the real chat-service)', () => {
  let t: SafetyTestBed;
  let gate: PairGate;
  let chat: RealChat;

  beforeAll(async () => {
    const port = await freePort();
    t = await startSafetyTestBed('safety_gate', { env: { CHAT_SERVICE_URL: `http://127.0.0.1:${port}` } });
    gate = t.bed.app.get(PairGate);
    chat = await startRealChat(t, port, 'safety_gate_chat');
  }, 120_000);

  afterAll(async () => {
    await chat?.close();
    await t?.close();
  }, 60_000);

  const pairVersion = async (x: SafetyMember, y: SafetyMember) => {
    const events = await t.events();
    const ids = new Set([x.userId, y.userId]);
    const mine = events.filter((e) => e.aggregateType === 'pair' && e.aggregateId?.split(':').every((id) => ids.has(id)));
    return mine.at(-1)?.aggregateVersion;
  };

  it('the gate is closed at the block’s pair version by the time the block answers; a repeated block closes it again', async () => {
    const [ann, bob] = [await t.member({ name: 'Ann' }), await t.member({ name: 'Bob' })];
    expect(await gate.read(ann.userId, bob.userId)).toBeNull();
    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);
    expect(await pairVersion(ann, bob)).toBe(1);
    expect(await gate.read(bob.userId, ann.userId)).toEqual({ version: 1, open: false });

    // The first answer was lost with its gate write (say): the retry closes the gate again.
    await t.bed.app.get<Redis>(REDIS).del(gate.key(ann.userId, bob.userId));
    expect((await t.api(ann, 'POST', `/api/safety/block/${bob.userId}`)).status).toBe(200);
    expect(await gate.read(ann.userId, bob.userId)).toEqual({ version: 1, open: false });
  });

  it('the gate is closed at the unmatch’s pair version by the time the unmatch answers', async () => {
    const [cat, dan] = [await t.member({ name: 'Cat' }), await t.member({ name: 'Dan' })];
    const matchId = await t.match(cat, dan, { pairVersion: 0 });
    expect(await t.api(dan, 'POST', `/api/safety/unmatch/${cat.userId}`)).toEqual({ status: 200, body: { unmatched: true, matchId } });
    expect(await gate.read(cat.userId, dan.userId)).toEqual({ version: 1, open: false });
  });

  it('a message sent right after the block answered is refused by the real chat-service, stored nowhere', async () => {
    const [eve, fay] = [await t.member({ name: 'Eve' }), await t.member({ name: 'Fay' })];
    await chat.matchInChat(eve, fay, 0);
    const send = chat.send;
    await waitFor(async () => (await send(eve, fay, 'hello')).status === 200, { timeoutMs: 15_000, what: 'chat to open the conversation' });

    // Chat hears of no event from here on: its projection keeps the pair open.
    await chat.events.pause();
    try {
      expect((await t.api(fay, 'POST', `/api/safety/block/${eve.userId}`)).status).toBe(200);
      const refused = await send(eve, fay, 'are you there?');
      expect([refused.status, refused.body.error]).toEqual([403, ChatMessages.notMatched]);
      const back = await send(fay, eve, 'bye');
      expect(back.status).toBe(403);
      const snapshot = await call<PairMessagesSnapshotDto>(
        chat.process.url,
        'GET',
        `/internal/chat/pairs/${eve.userId}/${fay.userId}/messages?before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=20`,
        { headers: { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN } },
      );
      expect(snapshot.body.messages.map((m) => m.content)).toEqual(['hello']);
    } finally {
      await chat.events.resume();
    }
  }, 60_000);
});
