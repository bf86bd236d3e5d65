import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import jwt from 'jsonwebtoken';
import pino from 'pino';
import {
  CHAT_SYNC_MAX_MESSAGES,
  ChatMessages,
  ErrorCode,
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  isSocketError,
  type ChatMessageDto,
  type MarkReadResultDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { BaseServiceEnv, LOGGER, NulTextMessages, SessionStore } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { ackError, startChatTestBed, type ChatMember, type ChatTestBed, type MemberConnection } from '../../__tests__/chat-test-bed';
import { SYNC_SQL } from '../message.repository';

jest.setTimeout(60_000);

const MESSAGES_PER_10_SECONDS = 50;
const TYPING_PER_10_SECONDS = 8;
const SYNCS_PER_10_SECONDS = 12;

/**
 * The attacker's review (R1, docs/adr/0013-chat-delivery.md "Security review"): a member with a
 * valid token reaching into other pairs, a stolen or revoked token, forged headers on the internal
 * route, hostile strings, floods of cheap events, reads racing sends, and outages.
 */
describe('chat under attack (real gateway, PostgreSQL, Redis)', () => {
  let bed: ChatTestBed;
  const logLines: string[] = [];
  /** Every content this file sends: none may reach a log line. */
  const contents = new Set<string>();
  const internalToken = () => bed.chat.env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    bed = await startChatTestBed('chat_security', {
      env: {
        CHAT_MESSAGES_PER_10_SECONDS: String(MESSAGES_PER_10_SECONDS),
        CHAT_TYPING_PER_10_SECONDS: String(TYPING_PER_10_SECONDS),
        CHAT_SYNCS_PER_10_SECONDS: String(SYNCS_PER_10_SECONDS),
        CHAT_TYPING_PAIR_CACHE_MS: '0',
      },
      overrides: [{ provide: LOGGER, useValue: pino({ level: 'debug' }, stream) }],
    });
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const pair = (a?: string, b?: string) => bed.pair(a, b);

  async function send(from: MemberConnection, to: ChatMember, content: string, clientId?: string): Promise<ChatMessageDto> {
    contents.add(content);
    const ack = await from.emit('send_message', { recipientId: to.userId, content, ...(clientId ? { clientId } : {}) });
    if (typeof ack !== 'object' || ack === null || 'error' in ack) throw new Error(`send refused: ${JSON.stringify(ack)}`);
    return ack as ChatMessageDto;
  }

  const messagesOf = async (senderId: string) =>
    (await bed.chat.dataSource.query('SELECT count(*)::int AS n FROM message WHERE sender_id = $1', [senderId]))[0].n as number;

  /** A POST whose path is sent exactly as written. */
  const rawPost = (base: string, path: string, token: string, body: unknown) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(base);
      const req = request(
        { host: url.hostname, port: url.port, method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });

  /** Straight to chat-service, past the gateway, as anything on the internal network could. */
  const direct = (path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    bed.chat.call<Record<string, unknown>>('POST', path, opts);

  it('serves socket events only to the gateway: a member token alone is 403, storing nothing', async () => {
    const [ann, bob] = await pair();
    const body = { recipientId: bob.userId, content: 'not through the gateway' };
    contents.add(body.content);
    for (const path of [
      '/internal/socket-events/send_message',
      '/INTERNAL/socket-events/send_message',
      '//internal/socket-events/send_message',
      '/%69nternal/socket-events/send_message',
      '/internal/socket-events/send_message/',
    ]) {
      const res = await direct(path, { token: ann.token, body });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    // A wrong credential is no credential.
    expect((await direct('/internal/socket-events/send_message', { token: ann.token, body, headers: { [INTERNAL_TOKEN_HEADER]: 'guess' } })).status).toBe(403);
    // Through the gateway's edge the route does not exist, and a client-sent credential is dropped.
    const viaEdge = await bed.api(ann, 'POST', '/internal/socket-events/send_message', body);
    expect([403, 404]).toContain(viaEdge.status);
    // Nor through a chat route's prefix with dot segments (sent raw: fetch would resolve them).
    for (const path of [
      '/api/chat/../../internal/socket-events/send_message',
      '/api/chat/%2e%2e/%2e%2e/internal/socket-events/send_message',
      '/api/chat/..%2f..%2finternal%2fsocket-events%2fsend_message',
    ]) {
      const status = await rawPost(bed.gateway.url, path, ann.token, body);
      expect({ path, refused: status >= 400 && status < 500 }).toEqual({ path, refused: true });
    }
    expect(await messagesOf(ann.userId)).toBe(0);
  });

  it('takes the sender from the session token only: forged identity headers and request ids change nothing', async () => {
    const [ann, bob] = await pair();
    const res = await direct('/internal/socket-events/send_message', {
      token: ann.token,
      body: { recipientId: bob.userId, content: 'who sent this?' },
      headers: {
        [INTERNAL_TOKEN_HEADER]: internalToken(),
        [REQUEST_ID_HEADER]: `forged\r\n${bob.userId}`.replace(/\r\n/g, '-'),
        'x-user-id': bob.userId,
        'x-mate-user': bob.userId,
        'x-forwarded-user': bob.userId,
      },
    });
    contents.add('who sent this?');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ senderId: ann.userId, recipientId: bob.userId });
    // The gateway's credential without a member's token is nobody.
    const anonymous = await direct('/internal/socket-events/send_message', {
      body: { recipientId: bob.userId, content: 'anonymous' },
      headers: { [INTERNAL_TOKEN_HEADER]: internalToken(), 'x-user-id': ann.userId },
    });
    expect(anonymous.status).toBe(401);
    expect(await messagesOf(bob.userId)).toBe(0);
  });

  it('refuses a stolen token once its session is gone, and a token signed with another secret (401)', async () => {
    const [ann, bob] = await pair();
    const forged = jwt.sign({ sub: bob.userId, sid: randomUUID() }, 'not-the-secret', { algorithm: 'HS256', expiresIn: '1h' });
    const unsigned = jwt.sign({ sub: bob.userId, sid: bob.sessionId }, '', { algorithm: 'none' });
    for (const token of [forged, unsigned]) {
      expect((await bed.api({ ...bob, token }, 'GET', '/api/chat/conversations')).status).toBe(401);
      const res = await direct('/internal/socket-events/send_message', {
        token,
        body: { recipientId: ann.userId, content: 'forged' },
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken() },
      });
      expect(res.status).toBe(401);
    }
    await bed.sessions.revoke(ann.sessionId, ann.userId);
    expect((await bed.api(ann, 'GET', `/api/chat/conversation/${bob.userId}`)).status).toBe(401);
    const late = await direct('/internal/socket-events/send_message', {
      token: ann.token,
      body: { recipientId: bob.userId, content: 'after sign-out' },
      headers: { [INTERNAL_TOKEN_HEADER]: internalToken() },
    });
    expect(late.status).toBe(401);
    expect(await messagesOf(ann.userId)).toBe(0);
    expect(await messagesOf(bob.userId)).toBe(0);
  });

  it("answers another pair's conversation exactly as a missing one, on every event and route", async () => {
    const [ann, bob] = await pair();
    const eve = await bed.member('Eve');
    const annSocket = await bed.connect(ann);
    await send(annSocket, bob, 'between Ann and Bob');
    const eveSocket = await bed.connect(eve);
    const nobody = randomUUID();
    const answers = async (other: string) => ({
      send: ackError(await eveSocket.emit('send_message', { recipientId: other, content: 'hello?' })).error,
      typing: ackError(await eveSocket.emit('typing', { recipientId: other })).error,
      stop: ackError(await eveSocket.emit('stop_typing', { recipientId: other })).error,
      read: ackError(await eveSocket.emit('mark_as_read', { otherUserId: other })).error,
      page: (await bed.api(eve, 'GET', `/api/chat/conversation/${other}?after=0`)).body,
      rest: (await bed.api(eve, 'POST', `/api/chat/conversation/${other}/read`)).body,
      sync: await eveSocket.emit('sync_messages', { conversations: [{ userId: other, afterSeq: 0 }] }),
    });
    const strip = (a: Awaited<ReturnType<typeof answers>>) => ({
      ...a,
      page: { ...(a.page as object), requestId: undefined },
      rest: { ...(a.rest as object), requestId: undefined },
    });
    const foreign = strip(await answers(bob.userId));
    expect(foreign).toEqual(strip(await answers(nobody)));
    expect(foreign).toMatchObject({
      send: ChatMessages.notMatched,
      typing: ChatMessages.notMatched,
      read: ChatMessages.conversationNotFound,
      page: { error: ChatMessages.conversationNotFound },
      sync: { messages: [], hasMore: false },
    });
    // A sync naming every member it can think of still sees only Eve's own (none).
    const all = (await eveSocket.emit('sync_messages', {
      conversations: [ann, bob, eve].map((m) => ({ userId: m.userId, afterSeq: 0 })),
      since: '1970-01-01T00:00:00Z',
    })) as SyncMessagesResult;
    expect(all).toEqual({ messages: [], hasMore: false });
    // Nothing reached Ann or Bob, and Ann's read position did not move.
    expect(await messagesOf(eve.userId)).toBe(0);
    const [row] = await bed.chat.dataSource.query(
      'SELECT a_read_seq + b_read_seq AS reads FROM conversation WHERE $1 IN (member_a, member_b)',
      [ann.userId],
    );
    expect(row.reads).toBe(0);
  });

  it('refuses prototype keys, lone surrogates and hostile strings (400), and stores NUL-free, override-free text', async () => {
    const [ann, bob] = await pair();
    const socket = await bed.connect(ann);
    const base = { recipientId: bob.userId, content: 'x' };
    const refusal = async (payload: unknown) => ackError(await socket.emit('send_message', payload as never));
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const payload = JSON.parse(`{"recipientId":"${bob.userId}","content":"x","${key}":{"isAdmin":true}}`);
      expect(await refusal(payload)).toMatchObject({ code: ErrorCode.ValidationFailed, error: `Unknown field: ${key}` });
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // Payloads that are no object at all, on every event.
    for (const event of ['send_message', 'typing', 'stop_typing', 'mark_as_read', 'sync_messages'] as const) {
      for (const payload of [null, [], 'text', 42, true, [{ recipientId: bob.userId }]]) {
        const answer = await socket.emit(event, payload as never);
        expect({ event, payload, code: ackError(answer).code }).toEqual({ event, payload, code: ErrorCode.ValidationFailed });
      }
    }
    expect((await refusal({ ...base, content: 'broken \ud800 text' })).code).toBe(ErrorCode.ValidationFailed);
    expect((await refusal({ ...base, clientId: 'a\u0000b' })).error).toBe(NulTextMessages.bodyField('clientId'));
    expect((await refusal({ ...base, recipientId: `${bob.userId}\u0000` })).error).toBe(NulTextMessages.bodyField('recipientId'));
    expect((await refusal({ ...base, recipientId: `${bob.userId}'--` })).error).toBe('recipientId must be a UUID');
    expect((await refusal({ ...base, recipientId: [bob.userId] })).error).toBe('recipientId must be a UUID');
    expect((await refusal({ ...base, content: { toString: 'x' } })).error).toBe('content must be text');
    expect((await refusal({ ...base, content: '\u0002\u0001\u202E\u2066\u0085' })).error).toBe(ChatMessages.emptyMessage);

    // Control characters and the bidi overrides are stripped; NUL (PostgreSQL refuses it in text)
    // is refused, never a 500 (issue 24 item 3).
    expect((await send(socket, bob, 'a\u0001b\u202Ec\u2067d')).content).toBe('abcd');
    expect((await refusal({ ...base, content: 'a\u0000b' })).error).toBe(NulTextMessages.bodyField('content'));
    // Combining marks count as the code points they are: 2,000 accepted, 2,001 refused.
    const combining = 'e\u0301'.repeat(1000);
    expect((await send(socket, bob, combining)).content).toBe(combining);
    expect((await refusal({ ...base, content: `${combining}e` })).error).toBe(ChatMessages.tooLong);
    // 1,999 emoji and one more letter (2,000 code points, 3,999 UTF-16 units) fit; one emoji more does not.
    const emoji = `${'🙂'.repeat(1999)}a`;
    expect((await send(socket, bob, emoji)).content).toBe(emoji);
    expect((await refusal({ ...base, content: `${emoji}🙂` })).error).toBe(ChatMessages.tooLong);
    // A payload past the raw cap is refused before any normalizing work.
    expect((await refusal({ ...base, content: '\u0001'.repeat(8001) })).error).toBe(ChatMessages.tooLong);
  });

  it('refuses query and time edge cases with a 400, never a 500 or a 503', async () => {
    const [ann, bob] = await pair();
    const socket = await bed.connect(ann);
    const base = `/api/chat/conversation/${bob.userId}`;
    for (const query of [
      '?limit=1&limit=2',
      '?limit=',
      '?limit=1e2',
      '?limit=+5',
      '?limit=0x10',
      '?before=%00',
      '?before[]=1',
      '?after=-0',
      '?after=2147483648',
      '?limit[__proto__]=1',
      '?before=1&after=0',
    ]) {
      const res = await bed.api(ann, 'GET', `${base}${query}`);
      expect({ query, status: res.status, hasError: typeof res.body.error === 'string' }).toEqual({ query, status: 400, hasError: true });
    }
    for (const path of [`/api/chat/conversation/${bob.userId}%00`, `/api/chat/conversation/${bob.userId.toUpperCase()}x`]) {
      expect((await bed.api(ann, 'GET', path)).status).toBe(400);
    }
    // The extremes that are valid answer an empty page.
    for (const query of ['?before=0', '?after=2147483647', '?limit=100&before=2147483647']) {
      const res = await bed.api<{ messages: unknown[] }>(ann, 'GET', `${base}${query}`);
      expect({ query, status: res.status, messages: res.body.messages }).toEqual({ query, status: 200, messages: [] });
    }
    for (const since of ['-200000-01-01T00:00:00Z', '+200000-01-01T00:00:00Z', '2026-W47', '2026-327', '2026-02-30T00:00:00Z', '']) {
      const answer = await socket.emit('sync_messages', { since });
      expect({ since, code: ackError(answer).code }).toEqual({ since, code: ErrorCode.ValidationFailed });
    }
    expect(await socket.emit('sync_messages', { since: '1970-01-01T00:00:00Z' })).toEqual({ messages: [], hasMore: false });
    expect(await socket.emit('sync_messages', { since: '9999-12-31T23:59:59.999Z' })).toEqual({ messages: [], hasMore: false });
  });

  it('bounds the work of a sync that asks for everything: only what it answers is read', async () => {
    const me = await bed.member('Busy');
    // 40 conversations of 60 messages each (2,400), written straight into the tables.
    await bed.chat.dataSource.query(
      `WITH pairs AS (
         SELECT gen_random_uuid() AS id, $1::uuid AS me, gen_random_uuid() AS other, n FROM generate_series(1, 40) n
       ), opened AS (
         INSERT INTO conversation (id, member_a, member_b, match_id, matched_at, last_seq)
         SELECT id, least(me, other), greatest(me, other), gen_random_uuid(), now() - interval '1 day', 60 FROM pairs
         RETURNING id, member_a, member_b
       )
       INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content, created_at)
       SELECT gen_random_uuid(), o.id, s, o.member_a, o.member_b, gen_random_uuid()::text, 'old ' || s,
              now() - interval '1 day' + s * interval '1 second'
       FROM opened o CROSS JOIN generate_series(1, 60) s`,
      [me.userId],
    );
    const socket = await bed.connect(me);
    const everything = (await socket.emit('sync_messages', { since: '1970-01-01T00:00:00Z' })) as SyncMessagesResult;
    expect(everything.messages).toHaveLength(CHAT_SYNC_MAX_MESSAGES);
    expect(everything.hasMore).toBe(true);

    // The statement itself: message rows it touches, from its plan as run.
    const [{ 'QUERY PLAN': [plan] }] = await bed.chat.dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${SYNC_SQL}`, [
      me.userId,
      [],
      [],
      new Date(0),
      CHAT_SYNC_MAX_MESSAGES + 1,
    ]);
    type PlanNode = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] };
    const messageRows = (node: PlanNode): number =>
      (node['Relation Name'] === 'message' ? node['Actual Rows'] * node['Actual Loops'] : 0) +
      (node.Plans ?? []).reduce((sum, child) => sum + messageRows(child), 0);
    // About what it answers (501), the rest of the last conversation it starts and one start probe
    // per conversation; not the 2,400 it could reach (read twice, as it was before the review).
    expect(messageRows(plan.Plan)).toBeLessThan(2 * (CHAT_SYNC_MAX_MESSAGES + 1));
  });

  it('keeps unread counters exact and never negative while reads race sends', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket, bobLaptop] = [await bed.connect(ann), await bed.connect(bob), await bed.connect(bob)];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      work.push(send(i % 2 ? bobSocket : bobLaptop, ann, `race ${i}`));
      work.push(send(annSocket, bob, `back ${i}`));
      work.push(annSocket.emit('mark_as_read', { otherUserId: bob.userId }));
      work.push(bed.api(bob, 'POST', `/api/chat/conversation/${ann.userId}/read`));
    }
    await Promise.all(work);
    const [row] = await bed.chat.dataSource.query(
      `SELECT c.last_seq, c.a_unread, c.b_unread, c.a_read_seq, c.b_read_seq, c.member_a,
         (SELECT count(*)::int FROM message m WHERE m.conversation_id = c.id AND m.recipient_id = c.member_a AND m.seq > c.a_read_seq) AS a_expected,
         (SELECT count(*)::int FROM message m WHERE m.conversation_id = c.id AND m.recipient_id = c.member_b AND m.seq > c.b_read_seq) AS b_expected
       FROM conversation c WHERE $1 IN (member_a, member_b)`,
      [ann.userId],
    );
    expect(row.last_seq).toBe(40);
    expect(row.a_unread).toBe(row.a_expected);
    expect(row.b_unread).toBe(row.b_expected);
    expect(row.a_unread).toBeGreaterThanOrEqual(0);
    expect(row.b_unread).toBeGreaterThanOrEqual(0);
    const annIsA = row.member_a === ann.userId;
    const annUnread = (await bed.api<{ count: number }>(ann, 'GET', '/api/chat/unread-count')).body.count;
    expect(annUnread).toBe(annIsA ? row.a_unread : row.b_unread);
    // A last read by each side leaves both at zero.
    await annSocket.emit('mark_as_read', { otherUserId: bob.userId });
    await bed.api(bob, 'POST', `/api/chat/conversation/${ann.userId}/read`);
    expect((await bed.api<{ count: number }>(ann, 'GET', '/api/chat/unread-count')).body.count).toBe(0);
    expect((await bed.api<{ count: number }>(bob, 'GET', '/api/chat/unread-count')).body.count).toBe(0);
  });

  it('answers a mark_as_read flood without rewriting the row or pushing messages_read again', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    const last = await send(bobSocket, ann, 'read me');
    expect(await annSocket.emit('mark_as_read', { otherUserId: bob.userId })).toEqual({ readUpTo: last.seq });
    await bobSocket.next('messages_read');
    const version = async () =>
      (await bed.chat.dataSource.query('SELECT xmin::text AS v FROM conversation WHERE $1 IN (member_a, member_b)', [ann.userId]))[0].v;
    const before = await version();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => annSocket.emit('mark_as_read', { otherUserId: bob.userId }) as Promise<MarkReadResultDto>),
    );
    expect(answers.every((a) => a.readUpTo === last.seq)).toBe(true);
    expect(await version()).toBe(before);
    // The next real read still moves and is told, once.
    const next = await send(bobSocket, ann, 'and me');
    expect(await annSocket.emit('mark_as_read', { otherUserId: bob.userId })).toEqual({ readUpTo: next.seq });
    await bobSocket.next('messages_read', (p) => p.readUpTo === next.seq);
    expect(bobSocket.all('messages_read')).toHaveLength(2);
  });

  it('limits typing relays per member (429 past CHAT_TYPING_PER_10_SECONDS), relaying none past it', async () => {
    const [ann, bob] = await pair();
    const [annSocket, annLaptop, bobSocket] = [await bed.connect(ann), await bed.connect(ann), await bed.connect(bob)];
    const answers = [];
    for (let i = 0; i < TYPING_PER_10_SECONDS + 4; i++) {
      const socket = i % 2 ? annLaptop : annSocket; // devices share the member's limit
      answers.push(await socket.emit(i % 2 ? 'stop_typing' : 'typing', { recipientId: bob.userId }));
    }
    expect(answers.slice(0, TYPING_PER_10_SECONDS)).toEqual(Array(TYPING_PER_10_SECONDS).fill({ ok: true }));
    for (const refused of answers.slice(TYPING_PER_10_SECONDS)) {
      expect(ackError(refused)).toMatchObject({ code: ErrorCode.RateLimited });
    }
    await waitFor(async () => bobSocket.all('user_typing').length + bobSocket.all('user_stopped_typing').length >= TYPING_PER_10_SECONDS || null, {
      timeoutMs: 5_000,
      what: 'the relayed typing events',
    });
    // One more message after the flood proves the pushes in between all arrived; none past the limit.
    await send(annSocket, bob, 'after typing');
    await bobSocket.next('new_message', (m) => m.content === 'after typing');
    expect(bobSocket.all('user_typing').length + bobSocket.all('user_stopped_typing').length).toBe(TYPING_PER_10_SECONDS);
  });

  it('limits sync_messages per member across devices (429 past CHAT_SYNCS_PER_10_SECONDS, which clients retry)', async () => {
    const [ann, bob] = await pair();
    const devices = [await bed.connect(ann), await bed.connect(ann)];
    const ask = { conversations: [{ userId: bob.userId, afterSeq: 0 }], since: '1970-01-01T00:00:00Z' };
    const answers = await Promise.all(Array.from({ length: SYNCS_PER_10_SECONDS + 3 }, (_, i) => devices[i % 2].emit('sync_messages', ask)));
    const refused = answers.filter(isSocketError);
    expect(refused.map((r) => r.code)).toEqual(Array(3).fill(ErrorCode.RateLimited));
    expect(answers.filter((a) => !isSocketError(a))).toEqual(Array(SYNCS_PER_10_SECONDS).fill({ messages: [], hasMore: false }));
    // Asking for nothing costs nothing and is not counted.
    expect(await devices[0].emit('sync_messages', {})).toEqual({ messages: [], hasMore: false });
  });

  it('counts sends per member across devices: past the limit every socket gets 429 and nothing more is stored', async () => {
    const [ann, bob] = await pair();
    const devices = [await bed.connect(ann), await bed.connect(ann), await bed.connect(ann)];
    const answers = await Promise.all(
      Array.from({ length: MESSAGES_PER_10_SECONDS + 6 }, (_, i) => {
        contents.add(`burst ${i}`);
        return devices[i % 3].emit('send_message', { recipientId: bob.userId, content: `burst ${i}`, clientId: `burst-${i}` });
      }),
    );
    const refused = answers.filter((a) => typeof a === 'object' && a !== null && 'error' in a);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(ackError(r).code).toBe(ErrorCode.RateLimited);
    expect(await messagesOf(ann.userId)).toBe(MESSAGES_PER_10_SECONDS);
  });

  it('answers 503 (retryable) when Redis fails before the write, storing nothing; the retry stores it once', async () => {
    const [ann, bob] = await pair();
    const socket = await bed.connect(ann);
    // The sends' count (the kit's, @CountedPerMember) fails as ioredis fails a command on a closed connection.
    const closed = Object.assign(new Error('Connection is closed.'), { name: 'Error' });
    const spy = jest.spyOn(bed.chat.app.get(SessionStore), 'countMembers').mockRejectedValueOnce(closed);
    const payload = { recipientId: bob.userId, content: 'while redis blinks', clientId: 'blink-1' };
    contents.add(payload.content);
    try {
      expect(ackError(await socket.emit('send_message', payload)).code).toBe(ErrorCode.ServiceUnavailable);
    } finally {
      spy.mockRestore();
    }
    expect(await messagesOf(ann.userId)).toBe(0);
    expect(await socket.emit('send_message', payload)).toMatchObject({ seq: 1, clientId: 'blink-1' });
    expect(await messagesOf(ann.userId)).toBe(1);
  });

  it('answers the REST routes 503 (retryable) while the database fails, not 500', async () => {
    const [ann, bob] = await pair();
    await bed.chat.dataSource.query('ALTER TABLE conversation RENAME TO conversation_away');
    let answers: { status: number; code: unknown }[];
    try {
      answers = [];
      for (const [method, path] of [
        ['GET', '/api/chat/conversations'],
        ['GET', `/api/chat/conversation/${bob.userId}`],
        ['POST', `/api/chat/conversation/${bob.userId}/read`],
        ['GET', '/api/chat/unread-count'],
      ] as const) {
        const res = await bed.api(ann, method, path);
        answers.push({ status: res.status, code: res.body.code });
      }
    } finally {
      await bed.chat.dataSource.query('ALTER TABLE conversation_away RENAME TO conversation');
    }
    expect(answers).toEqual(Array(4).fill({ status: 503, code: ErrorCode.ServiceUnavailable }));
    expect((await bed.api(ann, 'GET', '/api/chat/conversations')).status).toBe(200);
  });

  it('never logs message contents or tokens', async () => {
    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const content of contents) if (content.length > 6) expect(log).not.toContain(content);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/); // a JWT
    expect(log).not.toContain(internalToken());
  });
});
