import { Writable } from 'node:stream';
import type { OpenAPIObject } from '@nestjs/swagger';
import pino from 'pino';
import {
  CHAT_SYNC_MAX_CONVERSATIONS,
  ChatErrorCode,
  ChatMessages,
  EdgeMessages,
  ErrorCode,
  type ChatMessageDto,
  type ClientEventName,
} from '@mate/contracts';
import { documentationGaps, LOGGER, NulTextMessages, OPENAPI_PATH, RealtimeEmitter } from '@mate/server-kit';
import { ackError, startChatTestBed, type ChatMember, type ChatTestBed, type MemberConnection } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

const MESSAGES_PER_10_SECONDS = 5;

/** A realtime emitter whose Redis is gone: every push rejects (as ioredis does, with the command). */
const failingEmitter = {
  toUser: () => failingTarget,
  toSession: () => failingTarget,
};
const failingTarget = {
  andUser: () => failingTarget,
  emit: (...args: unknown[]) =>
    Promise.reject(Object.assign(new Error('Connection is closed.'), { command: { name: 'xadd', args } })),
};

/**
 * What chat refuses and how: every bad field of every event and route, unknown fields, the
 * per-member rate limit; and that a push failing after the commit never fails the send, nor
 * puts the content in a log line.
 */
describe('chat input, limits and push failures', () => {
  let bed: ChatTestBed;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    bed = await startChatTestBed('chat_input', {
      env: { CHAT_MESSAGES_PER_10_SECONDS: String(MESSAGES_PER_10_SECONDS) },
      overrides: [
        { provide: RealtimeEmitter, useValue: failingEmitter },
        { provide: LOGGER, useValue: pino({ level: 'info' }, stream) },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  let ann: ChatMember;
  let bob: ChatMember;
  let socket: MemberConnection;

  beforeAll(async () => {
    [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    await bed.match(ann, bob);
    socket = await bed.connect(ann);
  });

  async function refused(event: ClientEventName, payload: unknown, message?: string) {
    const answer = ackError(await socket.emit(event, payload as never));
    expect(answer.code).toBe(ErrorCode.ValidationFailed);
    if (message) expect(answer.error).toBe(message);
    return answer;
  }

  it('refuses every bad send_message field and unknown fields (400), storing nothing', async () => {
    const valid = { recipientId: bob.userId, content: 'hi' };
    await refused('send_message', { content: 'hi' }, 'recipientId must be a UUID');
    await refused('send_message', { ...valid, recipientId: 'bob' }, 'recipientId must be a UUID');
    await refused('send_message', { ...valid, recipientId: 42 }, 'recipientId must be a UUID');
    await refused('send_message', { recipientId: bob.userId }, 'content must be text');
    await refused('send_message', { ...valid, content: ['hi'] }, 'content must be text');
    await refused('send_message', { ...valid, content: 'x'.repeat(8001) }, ChatMessages.tooLong);
    await refused('send_message', { ...valid, clientId: 'has spaces' }, ChatMessages.invalidClientId);
    await refused('send_message', { ...valid, clientId: '' }, ChatMessages.invalidClientId);
    await refused('send_message', { ...valid, clientId: 'x'.repeat(65) }, ChatMessages.invalidClientId);
    await refused('send_message', { ...valid, clientId: 7 }, ChatMessages.invalidClientId);
    await refused('send_message', { ...valid, senderId: bob.userId }, 'Unknown field: senderId');
    await refused('send_message', { ...valid, content: '\u0001 \n' }, ChatMessages.emptyMessage);
    await refused('send_message', { ...valid, content: '\u0000 \n' }, NulTextMessages.bodyField('content'));
    expect(ackError(await socket.emit('send_message', { recipientId: ann.userId, content: 'me' }))).toMatchObject({
      error: ChatMessages.messageSelf,
      code: ChatErrorCode.MessageSelf,
    });
    const rows = await bed.chat.dataSource.query('SELECT count(*)::int AS n FROM message WHERE sender_id = $1', [ann.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses bad typing, mark_as_read and sync_messages payloads (400)', async () => {
    await refused('typing', { recipientId: 'x' }, 'recipientId must be a UUID');
    await refused('stop_typing', {}, 'recipientId must be a UUID');
    await refused('typing', { recipientId: bob.userId, content: 'x' }, 'Unknown field: content');
    await refused('mark_as_read', { otherUserId: 'x' }, 'otherUserId must be a UUID');
    await refused('mark_as_read', { otherUserId: bob.userId, upTo: 3 }, 'Unknown field: upTo');

    const position = { userId: bob.userId, afterSeq: 0 };
    await refused('sync_messages', { conversations: 'all' }, 'conversations must be a list');
    await refused(
      'sync_messages',
      { conversations: Array.from({ length: CHAT_SYNC_MAX_CONVERSATIONS + 1 }, () => position) },
      `conversations may name at most ${CHAT_SYNC_MAX_CONVERSATIONS} conversations`,
    );
    await refused('sync_messages', { conversations: [{ afterSeq: 0 }] }, 'conversations.userId must be a UUID');
    await refused('sync_messages', { conversations: [{ ...position, afterSeq: -1 }] }, 'afterSeq must be a whole number of at least 0');
    await refused('sync_messages', { conversations: [{ ...position, afterSeq: 1.5 }] }, 'afterSeq must be a whole number of at least 0');
    await refused('sync_messages', { conversations: [{ ...position, afterSeq: '3' }] }, 'afterSeq must be a whole number of at least 0');
    await refused('sync_messages', { conversations: [{ userId: bob.userId }] }, 'afterSeq must be a whole number of at least 0');
    await refused('sync_messages', { conversations: [{ ...position, extra: 1 }] }, 'Unknown field: conversations.0.extra');
    await refused('sync_messages', { conversations: [null] });
    await refused('sync_messages', { since: 'yesterday' }, 'since must be an ISO 8601 time');
    await refused('sync_messages', { since: 1700000000000 }, 'since must be an ISO 8601 time');
    await refused('sync_messages', { all: true }, 'Unknown field: all');
    // Nothing named: nothing to answer.
    expect(await socket.emit('sync_messages', {})).toEqual({ messages: [], hasMore: false });
  });

  it('refuses bad REST input (400 with a clear error), never a 500', async () => {
    const base = `/api/chat/conversation/${bob.userId}`;
    const cases: [string, string][] = [
      ['/api/chat/conversation/not-a-uuid', 'userId must be a UUID'],
      ['/api/chat/conversation/not-a-uuid/read', 'userId must be a UUID'],
      [`${base}?limit=0`, 'limit must be a whole number from 1 to 100'],
      [`${base}?limit=101`, 'limit must be a whole number from 1 to 100'],
      [`${base}?limit=ten`, 'limit must be a whole number from 1 to 100'],
      [`${base}?before=-1`, 'before must be a whole number of at least 0'],
      [`${base}?after=1.5`, 'after must be a whole number of at least 0'],
      [`${base}?before=99999999999`, 'before must be a whole number of at least 0'],
      [`${base}?before=5&after=1`, 'Give before or after, not both'],
      [`${base}?page=2`, 'Unknown field: page'],
    ];
    for (const [path, error] of cases) {
      const res = await bed.api(ann, path.endsWith('/read') ? 'POST' : 'GET', path);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error });
    }
  });

  it('limits one member to CHAT_MESSAGES_PER_10_SECONDS sends (429), storing none past it', async () => {
    const carl = await bed.member('Carl');
    await bed.match(carl, bob);
    const carlSocket = await bed.connect(carl);
    const answers = [];
    for (let i = 0; i <= MESSAGES_PER_10_SECONDS; i++) {
      answers.push(await carlSocket.emit('send_message', { recipientId: bob.userId, content: `n${i}` }));
    }
    expect(answers.slice(0, MESSAGES_PER_10_SECONDS).every((a) => (a as ChatMessageDto).seq > 0)).toBe(true);
    expect(ackError(answers[MESSAGES_PER_10_SECONDS])).toMatchObject({ error: ChatMessages.tooManyMessages, code: ErrorCode.RateLimited });
    const rows = await bed.chat.dataSource.query('SELECT count(*)::int AS n FROM message WHERE sender_id = $1', [carl.userId]);
    expect(rows[0].n).toBe(MESSAGES_PER_10_SECONDS);
  });

  it('acks a stored message when the push fails after the commit, and logs the failure without the content', async () => {
    const dave = await bed.member('Dave');
    const erin = await bed.member('Erin');
    await bed.match(dave, erin);
    const daveSocket = await bed.connect(dave);
    const secret = 'my very private words 8c1f';
    const ack = (await daveSocket.emit('send_message', { recipientId: erin.userId, content: secret })) as ChatMessageDto;
    expect(ack).toMatchObject({ seq: 1, content: secret });
    const page = await bed.api<{ messages: ChatMessageDto[] }>(erin, 'GET', `/api/chat/conversation/${dave.userId}`);
    expect(page.body.messages).toEqual([ack]);
    expect(logLines.some((l) => l.includes('chat message push failed') && l.includes(ack.id))).toBe(true);
    expect(logLines.join('\n')).not.toContain(secret);
    expect(logLines.join('\n')).not.toContain(dave.token);
  });

  it('answers a send that fails for a moment 503 (retryable), and the retry with its clientId stores it once', async () => {
    const fay = await bed.member('Fay');
    const gus = await bed.member('Gus');
    await bed.match(fay, gus);
    const faySocket = await bed.connect(fay);
    const payload = { recipientId: gus.userId, content: 'through the outage', clientId: 'outage-1' };
    await bed.chat.dataSource.query('ALTER TABLE message RENAME TO message_away');
    let during: unknown;
    try {
      during = await faySocket.emit('send_message', payload);
    } finally {
      await bed.chat.dataSource.query('ALTER TABLE message_away RENAME TO message');
    }
    expect(ackError(during)).toMatchObject({ error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable });
    const retried = (await faySocket.emit('send_message', payload)) as ChatMessageDto;
    expect(retried).toMatchObject({ seq: 1, clientId: 'outage-1', content: 'through the outage' });
    expect(await faySocket.emit('send_message', payload)).toEqual(retried);
    const rows = await bed.chat.dataSource.query('SELECT count(*)::int AS n FROM message WHERE sender_id = $1', [fay.userId]);
    expect(rows[0].n).toBe(1);
    expect(logLines.some((l) => l.includes('answered as unavailable'))).toBe(true);
    expect(logLines.join('\n')).not.toContain('through the outage');
  });

  it('documents every route it serves (OpenAPI, combined by the gateway at /api/docs)', async () => {
    const res = await bed.chat.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/api/chat/conversation/{userId}',
      '/api/chat/conversation/{userId}/read',
      '/api/chat/conversations',
      '/api/chat/unread-count',
    ]);
    expect(documentationGaps(bed.chat.app, res.body)).toEqual([]);
    expect((await bed.chat.call('GET', '/health/ready')).status).toBe(200);
  });
});
