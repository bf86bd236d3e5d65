import { randomUUID } from 'node:crypto';
import {
  CHAT_SYNC_MAX_MESSAGES,
  ChatErrorCode,
  ChatMessages,
  type ChatMessageDto,
  type ConversationPageDto,
  type ConversationSummaryDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { ackError, aProfile, sentMessage, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/** The Messages screen: the list, pages, read state, who may see what, and closed conversations. */
describe('chat conversations through the gateway', () => {
  let bed: ChatTestBed;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_conversations');
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const ordered = (x: string, y: string) => (x < y ? [x, y] : [y, x]);

  async function conversationId(x: ChatMember, y: ChatMember): Promise<string> {
    const rows: { id: string }[] = await bed.chat.dataSource.query(
      'SELECT id FROM conversation WHERE member_a = $1 AND member_b = $2',
      ordered(x.userId, y.userId),
    );
    return rows[0].id;
  }

  /** `n` messages, alternating senders from `from`, written as a seeder would (seq 1..n, counters kept). */
  async function seed(from: ChatMember, to: ChatMember, n: number): Promise<void> {
    const id = await conversationId(from, to);
    await bed.chat.dataSource.query(
      `INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content, created_at)
       SELECT gen_random_uuid(), $1, s, CASE WHEN s % 2 = 1 THEN $2::uuid ELSE $3::uuid END,
              CASE WHEN s % 2 = 1 THEN $3::uuid ELSE $2::uuid END, gen_random_uuid()::text, 'message ' || s,
              now() - make_interval(secs => $4 - s)
       FROM generate_series(1, $4::int) s`,
      [id, from.userId, to.userId, n],
    );
    await bed.chat.dataSource.query(
      `UPDATE conversation c SET last_seq = m.seq, last_message_id = m.id, last_message_at = m.created_at
       FROM message m WHERE c.id = $1 AND m.conversation_id = c.id AND m.seq = $2`,
      [id, n],
    );
  }

  async function send(from: ChatMember, to: ChatMember, content: string): Promise<ChatMessageDto> {
    const socket = await bed.connect(from);
    const ack = await socket.emit('send_message', { recipientId: to.userId, content });
    socket.socket.disconnect();
    return sentMessage(ack);
  }

  const list = async (member: ChatMember) => {
    const res = await bed.api<ConversationSummaryDto[]>(member, 'GET', '/api/chat/conversations');
    expect(res.status).toBe(200);
    return res.body;
  };
  const page = (member: ChatMember, other: ChatMember, query = '') =>
    bed.api<ConversationPageDto>(member, 'GET', `/api/chat/conversation/${other.userId}${query}`);

  it('lists open conversations newest activity first, with names, unread counts and "Start a conversation" rows', async () => {
    const me = await bed.member('Me');
    const [ann, bob, cat] = [await bed.member('Ann'), await bed.member('Bob'), await bed.member(null)];
    await bed.match(me, ann);
    await bed.match(me, bob);
    const fromAnn = await send(ann, me, 'hello from Ann');
    await bed.match(me, cat); // newest match, no message yet
    const toBob = await send(me, bob, 'hello Bob');
    const second = await send(ann, me, 'are you there?');

    const rows = await list(me);
    expect(rows.map((r) => r.userId)).toEqual([ann.userId, bob.userId, cat.userId]);
    expect(rows[0]).toEqual({
      userId: ann.userId,
      userName: 'Ann',
      profilePicture: null,
      unreadCount: 2,
      lastMessage: 'are you there?',
      lastMessageTime: second.createdAt,
      lastMessageSenderId: ann.userId,
      lastSeq: 2,
      matchedAt: expect.any(String),
    });
    expect(fromAnn.seq).toBe(1);
    expect(rows[1]).toMatchObject({ userName: 'Bob', unreadCount: 0, lastMessage: 'hello Bob', lastMessageSenderId: me.userId, lastMessageTime: toBob.createdAt });
    expect(rows[2]).toMatchObject({ userName: null, unreadCount: 0, lastMessage: null, lastMessageSenderId: null, lastSeq: 0 });
    expect(rows[2].lastMessageTime).toBe(rows[2].matchedAt);
    expect((await bed.api(me, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 2 });
    // The other side sees the same conversation from theirs.
    expect((await list(bob)).map((r) => [r.userId, r.userName, r.unreadCount])).toEqual([[me.userId, 'Me', 1]]);
  });

  it('shows names and pictures from profile.updated, newer versions only', async () => {
    const [me, ann] = [await bed.member('Me'), await bed.member(null)];
    await bed.match(me, ann);
    const profile = (name: string, picture: string | null) => aProfile(ann.userId, name, picture);
    expect((await list(me))[0]).toMatchObject({ userName: null, profilePicture: null });
    expect(await bed.deliver('profile.updated', profile('Ann v2', '/api/photos/files/p2/large.webp'), 2)).toBe('handled');
    expect((await list(me))[0]).toMatchObject({ userName: 'Ann v2', profilePicture: '/api/photos/files/p2/large.webp' });
    expect(await bed.deliver('profile.updated', profile('Ann v1', null), 1)).toBe('stale');
    expect(await bed.deliver('profile.updated', profile('Ann v3', null), 3)).toBe('handled');
    expect((await list(me))[0]).toMatchObject({ userName: 'Ann v3', profilePicture: null });
    const ack = await send(ann, me, 'hi');
    expect(ack.senderName).toBe('Ann v3');
  });

  it('pages a conversation: the newest 50, then older ones with before, newer ones with after', async () => {
    const [me, ann] = [await bed.member('Me'), await bed.member('Ann')];
    await bed.match(me, ann);
    await seed(ann, me, 120);
    const seqs = (p: ConversationPageDto) => p.messages.map((m) => m.seq);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

    const newest = (await page(me, ann)).body;
    expect(seqs(newest)).toEqual(range(71, 120));
    expect(newest).toMatchObject({ userId: ann.userId, hasMore: true, nextBefore: 71, lastSeq: 120 });
    expect(newest.messages[49]).toMatchObject({ seq: 120, senderId: me.userId, content: 'message 120', senderName: 'Me' });

    const older = (await page(me, ann, '?before=71')).body;
    expect(seqs(older)).toEqual(range(21, 70));
    expect(older).toMatchObject({ hasMore: true, nextBefore: 21 });
    const oldest = (await page(me, ann, '?before=21')).body;
    expect(seqs(oldest)).toEqual(range(1, 20));
    expect(oldest).toMatchObject({ hasMore: false, nextBefore: null });

    expect(seqs((await page(me, ann, '?limit=10')).body)).toEqual(range(111, 120));
    const resumed = (await page(me, ann, '?after=115')).body;
    expect(seqs(resumed)).toEqual(range(116, 120));
    expect(resumed.hasMore).toBe(false);
    const fromStart = (await page(me, ann, '?after=0&limit=5')).body;
    expect(seqs(fromStart)).toEqual(range(1, 5));
    expect(fromStart).toMatchObject({ hasMore: true, nextBefore: null });
    expect((await page(me, ann, '?limit=100')).body.messages).toHaveLength(100);
  });

  it('answers an empty conversation with no messages', async () => {
    const [me, ann] = [await bed.member('Me'), await bed.member('Ann')];
    await bed.match(me, ann);
    expect((await page(me, ann)).body).toEqual({ userId: ann.userId, messages: [], hasMore: false, nextBefore: null, lastSeq: 0 });
  });

  it('caps one sync answer at CHAT_SYNC_MAX_MESSAGES and says hasMore', async () => {
    const [me, ann] = [await bed.member('Me'), await bed.member('Ann')];
    await bed.match(me, ann);
    await seed(ann, me, CHAT_SYNC_MAX_MESSAGES + 100);
    const socket = await bed.connect(me);
    const first = (await socket.emit('sync_messages', { conversations: [{ userId: ann.userId, afterSeq: 0 }] })) as SyncMessagesResult;
    expect(first.hasMore).toBe(true);
    expect(first.messages.map((m) => m.seq)).toEqual(Array.from({ length: CHAT_SYNC_MAX_MESSAGES }, (_, i) => i + 1));
    const rest = (await socket.emit('sync_messages', {
      conversations: [{ userId: ann.userId, afterSeq: CHAT_SYNC_MAX_MESSAGES }],
    })) as SyncMessagesResult;
    expect(rest.hasMore).toBe(false);
    expect(rest.messages).toHaveLength(100);
    expect(rest.messages[0].seq).toBe(CHAT_SYNC_MAX_MESSAGES + 1);
  });

  it('pages a since-sync by the positions it returned: a named conversation follows its afterSeq, the since covers the others', async () => {
    const [me, ann, bob] = [await bed.member('Me'), await bed.member('Ann'), await bed.member('Bob')];
    await bed.match(me, ann);
    await bed.match(me, bob);
    await seed(ann, me, CHAT_SYNC_MAX_MESSAGES + 100);
    await seed(bob, me, 3);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const socket = await bed.connect(me);
    const got = new Map<string, number[]>();
    const positions = new Map<string, number>();
    let answers = 0;
    for (let more = true; more; answers++) {
      if (answers > 5) throw new Error('sync_messages never ran out of hasMore');
      const answer = (await socket.emit('sync_messages', {
        since,
        conversations: [...positions].map(([userId, afterSeq]) => ({ userId, afterSeq })),
      })) as SyncMessagesResult;
      for (const m of answer.messages) {
        const other = m.senderId === me.userId ? m.recipientId : m.senderId;
        got.set(other, [...(got.get(other) ?? []), m.seq]);
        positions.set(other, Math.max(positions.get(other) ?? 0, m.seq));
      }
      more = answer.hasMore;
    }
    // Each message once: a named conversation is not answered again from the since.
    expect(got.get(ann.userId)).toEqual(Array.from({ length: CHAT_SYNC_MAX_MESSAGES + 100 }, (_, i) => i + 1));
    expect(got.get(bob.userId)).toEqual([1, 2, 3]);
    expect(answers).toBe(2);
  });

  it("never shows a member another pair's conversation (404), nor their own with themselves", async () => {
    const [ann, bob, eve] = [await bed.member('Ann'), await bed.member('Bob'), await bed.member('Eve')];
    await bed.match(ann, bob);
    await send(ann, bob, 'private');
    for (const [path, method] of [
      [`/api/chat/conversation/${bob.userId}`, 'GET'],
      [`/api/chat/conversation/${ann.userId}`, 'GET'],
      [`/api/chat/conversation/${eve.userId}`, 'GET'],
      [`/api/chat/conversation/${randomUUID()}`, 'GET'],
      [`/api/chat/conversation/${bob.userId}/read`, 'POST'],
    ] as const) {
      const res = await bed.api(eve, method, path);
      expect(res).toMatchObject({
        status: 404,
        body: { error: ChatMessages.conversationNotFound, code: ChatErrorCode.ConversationNotFound },
      });
    }
    const eveSocket = await bed.connect(eve);
    expect(ackError(await eveSocket.emit('mark_as_read', { otherUserId: bob.userId })).error).toBe(ChatMessages.conversationNotFound);
    const sync = (await eveSocket.emit('sync_messages', {
      conversations: [{ userId: bob.userId, afterSeq: 0 }, { userId: ann.userId, afterSeq: 0 }],
      since: new Date(0).toISOString(),
    })) as SyncMessagesResult;
    expect(sync).toEqual({ messages: [], hasMore: false });
    expect(await list(eve)).toEqual([]);
    // Nobody reads without a session.
    expect((await bed.api(null, 'GET', '/api/chat/conversations')).status).toBe(401);
  });

  it('honours a closed conversation everywhere, and reopens it on a new match only, the history before it hidden', async () => {
    const [me, ann, bob] = [await bed.member('Me'), await bed.member('Ann'), await bed.member('Bob')];
    const firstMatch = await bed.match(me, ann);
    await bed.match(me, bob);
    const before = await send(ann, me, 'before the close');
    await bed.chat.dataSource.query('UPDATE conversation SET closed_at = now() WHERE member_a = $1 AND member_b = $2', ordered(me.userId, ann.userId));

    expect((await list(me)).map((r) => r.userId)).toEqual([bob.userId]);
    expect((await bed.api(me, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 0 });
    expect((await page(me, ann)).status).toBe(404);
    expect((await bed.api(me, 'POST', `/api/chat/conversation/${ann.userId}/read`)).status).toBe(404);
    const annSocket = await bed.connect(ann);
    expect(ackError(await annSocket.emit('send_message', { recipientId: me.userId, content: 'after' })).error).toBe(ChatMessages.notMatched);
    expect(ackError(await annSocket.emit('typing', { recipientId: me.userId })).error).toBe(ChatMessages.notMatched);
    const meSocket = await bed.connect(me);
    expect(
      (await meSocket.emit('sync_messages', { conversations: [{ userId: ann.userId, afterSeq: 0 }] })) as SyncMessagesResult,
    ).toEqual({ messages: [], hasMore: false });

    // The old match's event again (redelivered under a new event id) does not reopen it.
    await bed.deliver('match.created', { matchId: firstMatch, userIds: ordered(me.userId, ann.userId) as [string, string], createdAt: new Date().toISOString() });
    expect((await list(me)).map((r) => r.userId)).toEqual([bob.userId]);

    await bed.match(me, ann);
    const reopened = await list(me);
    expect(reopened.map((r) => r.userId)).toEqual([ann.userId, bob.userId]);
    const after = await send(ann, me, 'after the reopen');
    // Seqs keep growing; members see only what follows the re-match (safety.integration-spec.ts has the rest).
    expect(after.seq).toBe(before.seq + 1);
    expect((await page(me, ann)).body.messages.map((m) => m.content)).toEqual(['after the reopen']);
  });

  it('opens one conversation per pair however often match.created arrives', async () => {
    const [me, ann] = [await bed.member('Me'), await bed.member('Ann')];
    const matchId = randomUUID();
    const payload = { matchId, userIds: ordered(me.userId, ann.userId) as [string, string], createdAt: new Date().toISOString() };
    expect(await bed.deliver('match.created', payload)).toBe('handled');
    await send(me, ann, 'hi');
    expect(await bed.deliver('match.created', payload)).toBe('handled');
    const rows = await bed.chat.dataSource.query('SELECT id, match_id, last_seq FROM conversation WHERE member_a = $1 AND member_b = $2', ordered(me.userId, ann.userId));
    expect(rows).toEqual([{ id: matchId, match_id: matchId, last_seq: 1 }]);
  });

  it('lists at most 500 conversations, the most recent', async () => {
    const me = await bed.member('Busy');
    await bed.chat.dataSource.query(
      `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at)
       SELECT id, least($1::uuid, other), greatest($1::uuid, other), id, now() - make_interval(secs => s)
       FROM (SELECT gen_random_uuid() AS id, gen_random_uuid() AS other, s FROM generate_series(1, 501) s) x`,
      [me.userId],
    );
    const rows = await list(me);
    expect(rows).toHaveLength(500);
    const times = rows.map((r) => Date.parse(r.lastMessageTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
