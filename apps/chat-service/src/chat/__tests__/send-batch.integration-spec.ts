import { randomUUID } from 'node:crypto';
import { ChatErrorCode, ErrorCode, INTERNAL_TOKEN_HEADER, type ChatMessageDto } from '@mate/contracts';
import { BaseServiceEnv, PairGate, type SocketEventBatchResult } from '@mate/server-kit';
import { startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

/**
 * send_message as the gateway delivers it under load: many members' sends in one request
 * (`POST /internal/socket-events`), stored by one statement in one transaction (MessageSender,
 * SEND_BATCH_SQL). Each send is answered on its own, and every promise of a single send holds:
 * stored before the answer, one seq after another per conversation in arrival order, one message per
 * client id, the pair gate, refusals storing nothing.
 */
describe('send_message in batches (chat-service, real PostgreSQL and Redis)', () => {
  let bed: ChatTestBed;
  const internalToken = () => bed.chat.env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_send_batch');
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  type Send = { from: ChatMember; payload: Record<string, unknown> } | { token: string; payload: unknown };

  /** One delivery of send_message events, as the gateway's router sends a batch; the answers in order. */
  async function batch(sends: Send[]): Promise<SocketEventBatchResult[]> {
    const items = sends.map((s) => ({
      event: 'send_message',
      token: 'from' in s ? s.from.token : s.token,
      requestId: randomUUID(),
      payload: JSON.stringify(s.payload),
    }));
    const res = await bed.chat.call<{ results: SocketEventBatchResult[] }>('POST', '/internal/socket-events', {
      body: { items },
      headers: { [INTERNAL_TOKEN_HEADER]: internalToken() },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(sends.length);
    return res.body.results;
  }

  const stored = async (senderId: string) =>
    bed.chat.dataSource.query<{ client_id: string; content: string; seq: number }[]>(
      'SELECT client_id, content, seq FROM message WHERE sender_id = $1 ORDER BY created_at, seq',
      [senderId],
    );
  const message = (r: SocketEventBatchResult) => {
    expect(r.status).toBe(200);
    return r.body as ChatMessageDto;
  };
  const refusal = (r: SocketEventBatchResult) => r.body as { error: string; code: string };

  it('numbers a conversation’s sends of one batch in arrival order, from both sides, beside other conversations', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [cat, dan] = await bed.pair('Cat', 'Dan');
    const sends: Send[] = [];
    for (let i = 0; i < 20; i++) {
      const [from, to] = i % 3 === 0 ? [bob, ann] : [ann, bob];
      sends.push({ from, payload: { recipientId: to.userId, content: `ab ${i}`, clientId: `ab-${i}` } });
      if (i % 2 === 0) sends.push({ from: cat, payload: { recipientId: dan.userId, content: `cd ${i}`, clientId: `cd-${i}` } });
    }
    const answers = (await batch(sends)).map(message);
    const ab = answers.filter((m) => m.content.startsWith('ab'));
    const cd = answers.filter((m) => m.content.startsWith('cd'));
    expect(ab.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(ab.map((m) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `ab ${i}`));
    expect(cd.map((m) => m.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // Never decreasing with seq, as sync_messages relies on.
    const times = ab.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);

    const [row] = await bed.chat.dataSource.query<{ last_seq: number; a_unread: number; b_unread: number; member_a: string; last_content: string }[]>(
      `SELECT c.last_seq, c.a_unread, c.b_unread, c.member_a, m.content AS last_content
         FROM conversation c JOIN message m ON m.id = c.last_message_id WHERE c.id = $1`,
      [(await bed.chat.dataSource.query<{ conversation_id: string }[]>('SELECT conversation_id FROM message WHERE id = $1', [ab[0].id]))[0].conversation_id],
    );
    const toBob = ab.filter((m) => m.recipientId === bob.userId).length;
    expect(row.last_seq).toBe(20);
    expect(row.last_content).toBe('ab 19');
    expect(row.member_a === bob.userId ? [row.a_unread, row.b_unread] : [row.b_unread, row.a_unread]).toEqual([toBob, 20 - toBob]);

    // One outbox row per message, with its seq, and `first` only on the conversation's first.
    const events = await bed.chat.dataSource.query<{ seq: number; first: boolean }[]>(
      `SELECT (body->'payload'->>'seq')::int AS seq, (body->'payload'->>'first')::boolean AS first
         FROM outbox WHERE name = 'message.sent' AND body->'payload'->>'messageId' = ANY($1) ORDER BY 1`,
      [ab.map((m) => m.id)],
    );
    expect(events.map((e) => e.seq)).toEqual(ab.map((m) => m.seq));
    expect(events.filter((e) => e.first).map((e) => e.seq)).toEqual([1]);
  });

  it('answers a client id repeated in one batch as a retry of its first send (one message), and 409 when it names another conversation', async () => {
    const [eve, fay] = await bed.pair('Eve', 'Fay');
    const gus = await bed.member('Gus');
    await bed.match(eve, gus);
    const answers = await batch([
      { from: eve, payload: { recipientId: fay.userId, content: 'first try', clientId: 'dup-1' } },
      { from: eve, payload: { recipientId: fay.userId, content: 'second try', clientId: 'dup-1' } },
      { from: eve, payload: { recipientId: gus.userId, content: 'elsewhere', clientId: 'dup-1' } },
      { from: eve, payload: { recipientId: fay.userId, content: 'next', clientId: 'dup-2' } },
      // Another sender's client id may be the same.
      { from: fay, payload: { recipientId: eve.userId, content: 'mine', clientId: 'dup-1' } },
    ]);
    const first = message(answers[0]);
    expect(first).toMatchObject({ seq: 1, content: 'first try', clientId: 'dup-1' });
    expect(message(answers[1])).toEqual(first);
    expect(answers[2].status).toBe(409);
    expect(message(answers[3])).toMatchObject({ seq: 2, content: 'next' });
    expect(message(answers[4])).toMatchObject({ seq: 3, content: 'mine', clientId: 'dup-1' });
    expect(await stored(eve.userId)).toEqual([
      { client_id: 'dup-1', content: 'first try', seq: 1 },
      { client_id: 'dup-2', content: 'next', seq: 2 },
    ]);

    // The same batch again: every send a retry, nothing new stored.
    const again = await batch([
      { from: eve, payload: { recipientId: fay.userId, content: 'first try', clientId: 'dup-1' } },
      { from: eve, payload: { recipientId: fay.userId, content: 'next', clientId: 'dup-2' } },
    ]);
    expect(again.map((r) => message(r).seq)).toEqual([1, 2]);
    expect(await stored(eve.userId)).toHaveLength(2);
  });

  it('stores a client id once when batches racing each other carry it, with no hole in the seqs', async () => {
    const [oli, pam] = await bed.pair('Oli', 'Pam');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        batch([
          { from: oli, payload: { recipientId: pam.userId, content: 'the same', clientId: 'race-1' } },
          { from: oli, payload: { recipientId: pam.userId, content: `own ${i}`, clientId: `race-own-${i}` } },
        ]),
      ),
    );
    const same = answers.map(([r]) => message(r));
    expect(new Set(same.map((m) => m.id)).size).toBe(1);
    const rows = await stored(oli.userId);
    expect(rows.filter((r) => r.client_id === 'race-1')).toHaveLength(1);
    expect(rows.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
  });

  it('answers each send on its own: refusals and failures beside stored sends, nothing stored for a refused one, no seq skipped', async () => {
    const [hal, ivy] = await bed.pair('Hal', 'Ivy');
    const [jon, kim] = await bed.pair('Jon', 'Kim');
    const stranger = await bed.member('Lou');
    // Kim's pair is closed by the pair gate (a block answered; its event has not arrived).
    await bed.chat.app.get(PairGate).close(jon.userId, kim.userId, 1);
    const answers = await batch([
      { from: hal, payload: { recipientId: ivy.userId, content: 'one', clientId: 'mix-1' } },
      { from: hal, payload: { recipientId: stranger.userId, content: 'not a match', clientId: 'mix-2' } },
      { from: jon, payload: { recipientId: kim.userId, content: 'after the block', clientId: 'mix-3' } },
      { from: hal, payload: { recipientId: ivy.userId, content: '   ', clientId: 'mix-4' } },
      { from: hal, payload: { recipientId: hal.userId, content: 'myself', clientId: 'mix-5' } },
      { from: hal, payload: { recipientId: ivy.userId, content: 'x', unknown: 1 } },
      { token: 'not-a-token', payload: { recipientId: ivy.userId, content: 'forged' } },
      { from: ivy, payload: { recipientId: hal.userId, content: 'two', clientId: 'mix-6' } },
      { from: hal, payload: { recipientId: ivy.userId, content: 'three', clientId: 'mix-7' } },
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 403, 403, 400, 400, 400, 401, 200, 200]);
    expect([answers[1], answers[2]].map((r) => refusal(r).code)).toEqual([ChatErrorCode.NotMatched, ChatErrorCode.NotMatched]);
    expect([answers[0], answers[7], answers[8]].map((r) => [message(r).seq, message(r).content])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect((await stored(hal.userId)).map((m) => m.client_id)).toEqual(['mix-1', 'mix-7']);
    expect(await stored(jon.userId)).toEqual([]);
    const [{ n }] = await bed.chat.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM outbox WHERE name = 'message.sent' AND body->'payload'->>'senderId' = ANY($1)`,
      [[hal.userId, ivy.userId, jon.userId]],
    );
    expect(n).toBe(3);
  });

  it('stores the other sends when the statement refuses what one send holds, answering only that one as failed', async () => {
    const [quin, rae] = await bed.pair('Quin', 'Rae');
    // A constraint no send breaks today stands in for any data error of one send.
    await bed.chat.dataSource.query(`ALTER TABLE message ADD CONSTRAINT test_no_poison CHECK (content <> 'poison')`);
    let answers: SocketEventBatchResult[];
    try {
      answers = await batch([
        { from: quin, payload: { recipientId: rae.userId, content: 'fine 1', clientId: 'poison-1' } },
        { from: rae, payload: { recipientId: quin.userId, content: 'poison', clientId: 'poison-2' } },
        { from: quin, payload: { recipientId: rae.userId, content: 'fine 2', clientId: 'poison-3' } },
      ]);
    } finally {
      await bed.chat.dataSource.query('ALTER TABLE message DROP CONSTRAINT test_no_poison');
    }
    expect(answers.map((r) => r.status)).toEqual([200, 503, 200]);
    expect(refusal(answers[1]).code).toBe(ErrorCode.ServiceUnavailable);
    expect([answers[0], answers[2]].map((r) => [message(r).seq, message(r).content])).toEqual([
      [1, 'fine 1'],
      [2, 'fine 2'],
    ]);
    expect(await stored(rae.userId)).toEqual([]);
  });

  it('delivers a batch’s messages to the recipients’ sockets after storing them', async () => {
    const [mia, ned] = await bed.pair('Mia', 'Ned');
    const nedSocket = await bed.connect(ned);
    const miaSocket = await bed.connect(mia);
    const answers = (
      await batch([
        { from: mia, payload: { recipientId: ned.userId, content: 'p1', clientId: 'push-1' } },
        { from: mia, payload: { recipientId: ned.userId, content: 'p2', clientId: 'push-2' } },
      ])
    ).map(message);
    for (const m of answers) {
      expect(await nedSocket.next('new_message', (p) => p.id === m.id)).toEqual(m);
      expect(await miaSocket.next('message_sent', (p) => p.id === m.id)).toEqual(m);
    }
  });
});
