import {
  ChatErrorCode,
  ChatMessages,
  type ChatMessageDto,
  type ConversationPageDto,
  type MarkReadResultDto,
  type MessageSentPayload,
  type EventEnvelope,
  type SyncMessagesResult,
} from '@mate/contracts';
import { NulTextMessages, readEventPayload } from '@mate/server-kit';
import { ackError, startChatTestBed, type ChatMember, type ChatTestBed, type MemberConnection } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 9's delivery rules, through the real gateway: persist, then ack, then push; one message
 * per clientId; one seq after another per conversation; resume by seq or time after a disconnect.
 */
describe('chat delivery through the gateway (real PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_delivery');
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const pair = (a?: string, b?: string) => bed.pair(a, b);

  async function send(from: MemberConnection, to: ChatMember, content: string, clientId?: string): Promise<ChatMessageDto> {
    const ack = await from.emit('send_message', { recipientId: to.userId, content, ...(clientId ? { clientId } : {}) });
    if (typeof ack !== 'object' || ack === null || 'error' in ack) throw new Error(`send refused: ${JSON.stringify(ack)}`);
    return ack as ChatMessageDto;
  }

  const countMessages = async (where: string, params: unknown[]) =>
    (await bed.chat.dataSource.query(`SELECT count(*)::int AS n FROM message WHERE ${where}`, params))[0].n as number;

  it('stores a message, acks it with its seq, pushes new_message to the recipient and message_sent to all the sender\'s devices', async () => {
    const [ann, bob] = await pair();
    const [annPhone, annLaptop, bobPhone] = [await bed.connect(ann), await bed.connect(ann), await bed.connect(bob)];

    const ack = await send(annPhone, bob, 'Hi Bob!', 'c-1');
    expect(ack).toMatchObject({
      seq: 1,
      senderId: ann.userId,
      recipientId: bob.userId,
      content: 'Hi Bob!',
      isRead: false,
      senderName: 'Ann',
      clientId: 'c-1',
    });
    expect(new Date(ack.createdAt).toISOString()).toBe(ack.createdAt);
    expect(await bobPhone.next('new_message')).toEqual(ack);
    expect(await annLaptop.next('message_sent')).toEqual(ack);
    expect(await annPhone.next('message_sent')).toEqual(ack);
    expect(bobPhone.all('message_sent')).toEqual([]);

    const second = await send(bobPhone, ann, 'Hi Ann');
    expect(second.seq).toBe(2);
    expect(second.clientId).toMatch(/^[0-9a-f-]{36}$/); // made by the server when the client sent none
    expect(await annLaptop.next('new_message')).toEqual(second);

    const page = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}`);
    expect(page.status).toBe(200);
    expect(page.body.messages.map((m) => m.id)).toEqual([ack.id, second.id]);
  });

  it('reads a member id in any case as the same member (the pair is ordered and locked by its lower-case text)', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    const upper = await send(annSocket, { ...bob, userId: bob.userId.toUpperCase() }, 'shouting ids');
    const lower = await send(bobSocket, ann, 'fine');
    expect(upper).toMatchObject({ recipientId: bob.userId, seq: 1 });
    expect(lower.seq).toBe(2);
    const page = await bed.api<ConversationPageDto>(ann, 'GET', `/api/chat/conversation/${bob.userId.toUpperCase()}`);
    expect(page.body).toMatchObject({ userId: bob.userId, lastSeq: 2 });
    expect(await countMessages('recipient_id = $1 OR sender_id = $1', [bob.userId])).toBe(2);
  });

  it('refuses a pair without a conversation: 403, nothing stored, nothing pushed', async () => {
    const [ann, eve] = [await bed.member('Ann'), await bed.member('Eve')];
    const [annSocket, eveSocket] = [await bed.connect(ann), await bed.connect(eve)];
    const answer = ackError(await annSocket.emit('send_message', { recipientId: eve.userId, content: 'hello' }));
    expect(answer).toMatchObject({ error: ChatMessages.notMatched, code: ChatErrorCode.NotMatched });
    expect(await countMessages('sender_id = $1', [ann.userId])).toBe(0);
    // Pushes to one member arrive in order: a later push that arrives proves the refused one never went out.
    const [carl] = [await bed.member('Carl')];
    await bed.match(carl, eve);
    await send(await bed.connect(carl), eve, 'marker');
    await eveSocket.next('new_message', (m) => m.content === 'marker');
    expect(eveSocket.all('new_message').map((m) => m.content)).toEqual(['marker']);
  });

  it('keeps content as given after normalizing: HTML is text, emoji count once, control characters and bidi overrides go', async () => {
    const [ann, bob] = await pair();
    const annSocket = await bed.connect(ann);
    const script = '<script>alert("x")</script> <b>bold</b> & \'quotes\'';
    expect((await send(annSocket, bob, script)).content).toBe(script);
    expect((await send(annSocket, bob, '  \u0001he\u0007llo\u202E\tworld\n  ')).content).toBe('hello\tworld');
    // NUL is no control character to strip but input PostgreSQL cannot hold: refused (issue 24 item 3).
    const nul = ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: 'he\u0000llo' }));
    expect(nul.error).toBe(NulTextMessages.bodyField('content'));

    const emoji2000 = '😀'.repeat(2000);
    expect((await send(annSocket, bob, emoji2000)).content).toBe(emoji2000);
    const tooLong = ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: 'a'.repeat(2001) }));
    expect(tooLong.error).toBe(ChatMessages.tooLong);
    const tooManyEmoji = ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: '😀'.repeat(2001) }));
    expect(tooManyEmoji.error).toBe(ChatMessages.tooLong);
    // 2,000 characters after trimming are accepted even when the raw text was longer.
    expect((await send(annSocket, bob, `   ${'b'.repeat(2000)}   `)).content).toBe('b'.repeat(2000));

    const empty = ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: ' \u0001\u202E\n\t ' }));
    expect(empty.error).toBe(ChatMessages.emptyMessage);

    const page = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}`);
    expect(page.body.messages.map((m) => m.content)).toEqual([script, 'hello\tworld', emoji2000, 'b'.repeat(2000)]);
    expect(page.body.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });

  it('stores a message once per clientId: sequential retries and concurrent ones answer the stored message', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    const first = await send(annSocket, bob, 'once', 'retry-1');
    const retry = await send(annSocket, bob, 'once', 'retry-1');
    expect(retry).toEqual(first);
    // The retry is pushed again (the first push may be what was lost); the client keeps the id once.
    await bobSocket.next('new_message', (m) => m.id === first.id);
    await bobSocket.next('new_message', (m) => m.id === first.id);

    const acks = await Promise.all(Array.from({ length: 10 }, () => send(annSocket, bob, 'burst', 'retry-2')));
    expect(new Set(acks.map((a) => a.id)).size).toBe(1);
    expect(acks[0].seq).toBe(2);
    expect(await countMessages('sender_id = $1', [ann.userId])).toBe(2);
    const conversation = await bed.chat.dataSource.query('SELECT last_seq FROM conversation WHERE member_a = $1 OR member_b = $1', [ann.userId]);
    expect(conversation).toEqual([{ last_seq: 2 }]);
  });

  it('refuses a clientId the sender already used in another conversation (409), storing nothing', async () => {
    const [ann, bob] = await pair();
    const carl = await bed.member('Carl');
    await bed.match(ann, carl);
    const annSocket = await bed.connect(ann);
    await send(annSocket, bob, 'to Bob', 'shared-id');
    const answer = ackError(await annSocket.emit('send_message', { recipientId: carl.userId, content: 'to Carl', clientId: 'shared-id' }));
    expect(answer).toMatchObject({ error: ChatMessages.clientIdReused, code: ChatErrorCode.ClientIdReused });
    expect(await countMessages('recipient_id = $1', [carl.userId])).toBe(0);
  });

  it('gives concurrent sends from both sides distinct consecutive seqs and counts each side\'s unread', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    const acks = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => send(annSocket, bob, `ann ${i}`)),
      ...Array.from({ length: 20 }, (_, i) => send(bobSocket, ann, `bob ${i}`)),
    ]);
    expect(acks.map((a) => a.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const page = await bed.api<ConversationPageDto>(ann, 'GET', `/api/chat/conversation/${bob.userId}`);
    expect(page.body.messages.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(page.body.lastSeq).toBe(40);
    expect((await bed.api(ann, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 20 });
    expect((await bed.api(bob, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 20 });
  });

  it('writes one message.sent outbox row per stored message, without the content', async () => {
    const [ann, bob] = await pair();
    const annSocket = await bed.connect(ann);
    const first = await send(annSocket, bob, 'secret words', 'ev-1');
    await send(annSocket, bob, 'secret words', 'ev-1'); // a retry: no second event
    const second = await send(annSocket, bob, 'more secret words');
    const rows: { name: string; body: EventEnvelope<'message.sent'> }[] = await bed.chat.dataSource.query(
      `SELECT name, body FROM outbox WHERE name = 'message.sent' AND body->'payload'->>'senderId' = $1 ORDER BY (body->'payload'->>'seq')::int`,
      [ann.userId],
    );
    expect(rows.map((r) => r.body.payload)).toEqual<MessageSentPayload[]>([
      {
        messageId: first.id,
        conversationId: expect.any(String),
        senderId: ann.userId,
        recipientId: bob.userId,
        seq: 1,
        length: 12,
        first: true,
        sentAt: first.createdAt,
      },
      {
        messageId: second.id,
        conversationId: rows[0].body.payload.conversationId,
        senderId: ann.userId,
        recipientId: bob.userId,
        seq: 2,
        length: 17,
        first: false,
        sentAt: second.createdAt,
      },
    ]);
    // The conversation's own id (the send statement fills it in from the row it locked).
    const [{ id: conversationId }] = await bed.chat.dataSource.query('SELECT id FROM conversation WHERE member_a = $1 OR member_b = $1', [ann.userId]);
    expect(rows[0].body.payload.conversationId).toBe(conversationId);
    expect(JSON.stringify(rows)).not.toContain('secret');
    // What the statement completed reads as message.sent's payload class (the consumers' check).
    expect(rows.filter((r) => !readEventPayload('message.sent', r.body.payload).readable)).toEqual([]);
  });

  it('tells the sender when the recipient read (mark_as_read and POST read), and pages show isRead', async () => {
    const [ann, bob] = await pair();
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    for (const content of ['one', 'two', 'three']) await send(annSocket, bob, content);
    const read = (await bobSocket.emit('mark_as_read', { otherUserId: ann.userId })) as MarkReadResultDto;
    expect(read).toEqual({ readUpTo: 3 });
    expect(await annSocket.next('messages_read')).toEqual({ userId: bob.userId, readUpTo: 3 });

    await send(annSocket, bob, 'four');
    const page = await bed.api<ConversationPageDto>(ann, 'GET', `/api/chat/conversation/${bob.userId}`);
    expect(page.body.messages.map((m) => [m.seq, m.isRead])).toEqual([[1, true], [2, true], [3, true], [4, false]]);
    expect((await bed.api(bob, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 1 });

    const rest = await bed.api<MarkReadResultDto>(bob, 'POST', `/api/chat/conversation/${ann.userId}/read`);
    expect(rest).toMatchObject({ status: 200, body: { readUpTo: 4 } });
    expect(await annSocket.next('messages_read')).toEqual({ userId: bob.userId, readUpTo: 4 });
    expect((await bed.api(bob, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 0 });
    const after = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}`);
    expect(after.body.messages.every((m) => m.isRead)).toBe(true);
  });

  it('relays typing and stop_typing to a match and refuses (403, nothing relayed) a non-match', async () => {
    const [ann, bob] = await pair();
    const eve = await bed.member('Eve');
    const [annSocket, bobSocket, eveSocket] = [await bed.connect(ann), await bed.connect(bob), await bed.connect(eve)];
    expect(await annSocket.emit('typing', { recipientId: bob.userId })).toEqual({ ok: true });
    expect(await bobSocket.next('user_typing')).toEqual({ userId: ann.userId });
    expect(await annSocket.emit('stop_typing', { recipientId: bob.userId })).toEqual({ ok: true });
    expect(await bobSocket.next('user_stopped_typing')).toEqual({ userId: ann.userId });

    expect(ackError(await annSocket.emit('typing', { recipientId: eve.userId })).error).toBe(ChatMessages.notMatched);
    expect(ackError(await annSocket.emit('stop_typing', { recipientId: eve.userId })).error).toBe(ChatMessages.notMatched);
    const carl = await bed.member('Carl');
    await bed.match(carl, eve);
    await (await bed.connect(carl)).emit('typing', { recipientId: eve.userId });
    expect(await eveSocket.next('user_typing')).toEqual({ userId: carl.userId });
    expect(eveSocket.all('user_typing')).toEqual([{ userId: carl.userId }]);
    expect(eveSocket.all('user_stopped_typing')).toEqual([]);
  });

  it('disconnects the socket of a revoked session', async () => {
    const ann = await bed.member('Ann');
    const annSocket = await bed.connect(ann);
    const revoked = annSocket.next('session_revoked');
    const gone = new Promise<string>((resolve) => annSocket.socket.once('disconnect', resolve));
    await bed.sessions.revoke(ann.sessionId, ann.userId);
    expect(await revoked).toEqual({ reason: 'revoked' });
    expect(await gone).toBeTruthy();
    expect(annSocket.socket.connected).toBe(false);
  });

  it('resumes after a disconnect with exactly the missed messages, in order (sync by afterSeq and by since, REST after=)', async () => {
    const [ann, bob] = await pair();
    const annSocket = await bed.connect(ann);
    const bobAway = await bed.connect(bob);
    const held = await send(annSocket, bob, 'before');
    await bobAway.next('new_message', (m) => m.id === held.id);
    bobAway.socket.disconnect();

    const missed = [await send(annSocket, bob, 'missed 1'), await send(annSocket, bob, 'missed 2'), await send(annSocket, bob, 'missed 3')];
    const bobBack = await bed.connect(bob);
    const byPosition = (await bobBack.emit('sync_messages', {
      conversations: [{ userId: ann.userId, afterSeq: held.seq }],
    })) as SyncMessagesResult;
    expect(byPosition).toEqual({ messages: missed, hasMore: false });

    const byTime = (await bobBack.emit('sync_messages', { since: held.createdAt })) as SyncMessagesResult;
    expect(byTime).toEqual({ messages: missed, hasMore: false });

    const rest = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}?after=${held.seq}`);
    expect(rest.body).toEqual({ userId: ann.userId, messages: missed, hasMore: false, nextBefore: 2, lastSeq: 4 });

    // A named member without a conversation is skipped, never an error.
    const stranger = await bed.member('Stranger');
    const skipped = (await bobBack.emit('sync_messages', {
      conversations: [{ userId: stranger.userId, afterSeq: 0 }, { userId: ann.userId, afterSeq: 3 }],
    })) as SyncMessagesResult;
    expect(skipped.messages.map((m) => m.id)).toEqual([missed[2].id]);
  });

  it('syncs every open conversation by since, in (conversation, seq) order', async () => {
    const bob = await bed.member('Bob');
    const ann = await bed.member('Ann');
    const carl = await bed.member('Carl');
    await bed.match(ann, bob);
    await bed.match(carl, bob);
    const [annSocket, carlSocket, bobSocket] = [await bed.connect(ann), await bed.connect(carl), await bed.connect(bob)];
    const since = new Date(Date.now() - 1000).toISOString();
    await send(annSocket, bob, 'a1');
    await send(carlSocket, bob, 'c1');
    await send(annSocket, bob, 'a2');
    const all = (await bobSocket.emit('sync_messages', { since })) as SyncMessagesResult;
    expect(all.hasMore).toBe(false);
    const keys = all.messages.map((m) => [m.senderId === ann.userId ? 'ann' : 'carl', m.seq]);
    const annFirst = [['ann', 1], ['ann', 2], ['carl', 1]];
    const carlFirst = [['carl', 1], ['ann', 1], ['ann', 2]];
    // Ordered by conversation id (random), then seq.
    expect([annFirst, carlFirst]).toContainEqual(keys);
  });
});
