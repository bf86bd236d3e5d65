import { randomUUID } from 'node:crypto';
import {
  ChatMessages,
  DELETED_MEMBER_NAME,
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  orderedPairOf,
  pairIdOf,
  type ChatExportPart,
  type ChatMessageDto,
  type ConversationPageDto,
  type ConversationSummaryDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { BaseServiceEnv } from '@mate/server-kit';
import { ackError, aProfile, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';
import { columnsHolding, redisKeysHolding } from '@mate/testing';

jest.setTimeout(60_000);

/**
 * Issue 12 in chat: a member's export part, and their erasure on `user.deleted` (README "Member
 * data"): what they sent goes, the other member keeps their own side under 'Unknown User'.
 */
describe('chat: member data export and erasure (real gateway, PostgreSQL, Redis)', () => {
  let bed: ChatTestBed;
  const internalToken = () => bed.chat.env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN;
  const exportOf = (userId: string) =>
    bed.chat.call<ChatExportPart & { error?: string }>('GET', memberExportPath(userId), {
      headers: { [INTERNAL_TOKEN_HEADER]: internalToken() },
    });
  const deleted = (userId: string) => bed.deliver('user.deleted', { userId, deletedAt: new Date().toISOString() });

  beforeAll(async () => {
    bed = await startChatTestBed('chat_member_data');
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  async function send(from: ChatMember, to: ChatMember | string, content: string): Promise<ChatMessageDto> {
    const socket = await bed.connect(from);
    const recipientId = typeof to === 'string' ? to : to.userId;
    const ack = await socket.emit('send_message', { recipientId, content });
    socket.socket.disconnect();
    return ack as ChatMessageDto;
  }

  it('exports every conversation of the member with the messages sent and received, and whether each was read', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const first = await send(ann, bob, 'Hello Bob');
    await send(bob, ann, 'Hi Ann');
    expect((await bed.api(bob, 'POST', `/api/chat/conversation/${ann.userId}/read`)).status).toBe(200);

    const res = await exportOf(ann.userId);
    expect(res.status).toBe(200);
    expect(res.body.conversations).toEqual([
      {
        withUserId: bob.userId,
        createdAt: expect.any(String),
        closed: false,
        messages: [
          { id: first.id, seq: 1, direction: 'sent', content: 'Hello Bob', createdAt: first.createdAt, readAt: null, isRead: true },
          { id: expect.any(String), seq: 2, direction: 'received', content: 'Hi Ann', createdAt: expect.any(String), readAt: null, isRead: false },
        ],
      },
    ]);
    // Without the internal credential: refused.
    expect((await bed.chat.call('GET', memberExportPath(ann.userId))).status).toBe(403);
  });

  it('carries a re-match’s hidden history over: the kept messages renumbered, the older ones still hidden', async () => {
    const [xia, yan] = [await bed.member('Xia'), await bed.member('Yan')];
    const firstMatch = await bed.match(xia, yan);
    await send(xia, yan, 'X before');
    await send(yan, xia, 'Y before');
    // Unmatched (pair version 1), then matched again: the history before is hidden from both.
    const pair = { pairId: pairIdOf(xia.userId, yan.userId), userIds: orderedPairOf(xia.userId, yan.userId) };
    const ended = { ...pair, blockedBy: [], matchId: firstMatch, endedBy: xia.userId, reason: 'unmatch' as const, endedAt: new Date().toISOString() };
    expect(await bed.deliver('match.ended', ended, 1)).toBe('handled');
    expect(
      await bed.deliver('match.created', { matchId: randomUUID(), userIds: pair.userIds, createdAt: new Date().toISOString(), pairVersion: 1 }),
    ).toBe('handled');
    await send(xia, yan, 'X after');
    await send(yan, xia, 'Y after');

    expect(await deleted(xia.userId)).toBe('handled');
    expect(await columnsHolding(bed.chat.dataSource, xia.userId)).toEqual([]);
    const [listed] = (await bed.api<ConversationSummaryDto[]>(yan, 'GET', '/api/chat/conversations')).body;
    expect(listed).toEqual(expect.objectContaining({ userName: DELETED_MEMBER_NAME, lastMessage: 'Y after', lastSeq: 2, unreadCount: 0 }));
    const page = (await bed.api<ConversationPageDto>(yan, 'GET', `/api/chat/conversation/${listed.userId}`)).body;
    expect(page.messages.map((m) => [m.seq, m.content])).toEqual([[2, 'Y after']]);
    expect(page.hasMore).toBe(false);
    // Both kept messages stay in Yan's export (his own correspondence), numbered 1 and 2.
    const [conversation] = (await exportOf(yan.userId)).body.conversations;
    expect(conversation.messages.map((m) => [m.seq, m.content])).toEqual([
      [1, 'Y before'],
      [2, 'Y after'],
    ]);
  });

  it('erases a deleted member everywhere; the other member keeps their side under Unknown User, read-only', async () => {
    const xena = await bed.member('Xena');
    const [yuri, zed, wren] = [await bed.member('Yuri'), await bed.member('Zed'), await bed.member('Wren')];
    // Yuri: a conversation with both sides (Yuri's messages stay).
    await bed.match(xena, yuri);
    await send(xena, yuri, 'X to Y one');
    await send(yuri, xena, 'Y to X one');
    await send(xena, yuri, 'X to Y two');
    await send(yuri, xena, 'Y to X two');
    // Zed: only Xena wrote (the conversation goes).
    await bed.match(xena, zed);
    await send(xena, zed, 'X to Z');
    // Wren: wrote, then the pair was blocked (closed; a chat_pair and an ended_match of Xena's).
    const wrenMatch = await bed.match(xena, wren);
    await send(wren, xena, 'W to X');
    const { userIds } = { userIds: orderedPairOf(xena.userId, wren.userId) };
    await bed.deliver(
      'user.blocked',
      {
        pairId: pairIdOf(xena.userId, wren.userId),
        userIds,
        blockedBy: [wren.userId],
        blockerId: wren.userId,
        blockedId: xena.userId,
        endedMatchId: wrenMatch,
        blockedAt: new Date().toISOString(),
      },
      1,
    );
    expect(await columnsHolding(bed.chat.dataSource, xena.userId)).not.toEqual([]);
    expect(await redisKeysHolding(bed.chat.env.REDIS_URL as string, bed.chat.env.KEY_PREFIX as string, xena.userId)).not.toEqual([]);

    expect(await deleted(xena.userId)).toBe('handled');

    expect(await columnsHolding(bed.chat.dataSource, xena.userId)).toEqual([]);
    expect(await redisKeysHolding(bed.chat.env.REDIS_URL as string, bed.chat.env.KEY_PREFIX as string, xena.userId)).toEqual([]);

    // Yuri still lists the conversation, as Unknown User under a fresh id, with his messages only.
    const list = (await bed.api<ConversationSummaryDto[]>(yuri, 'GET', '/api/chat/conversations')).body;
    expect(list).toHaveLength(1);
    const anonymous = list[0];
    expect(anonymous).toEqual(
      expect.objectContaining({ userName: DELETED_MEMBER_NAME, profilePicture: null, unreadCount: 0, lastMessage: 'Y to X two', lastSeq: 2, readOnly: true }),
    );
    expect(anonymous.userId).not.toBe(xena.userId);
    const page = await bed.api<ConversationPageDto>(yuri, 'GET', `/api/chat/conversation/${anonymous.userId}`);
    expect(page.status).toBe(200);
    expect(page.body.messages.map((m) => [m.seq, m.senderId, m.recipientId, m.content])).toEqual([
      [1, yuri.userId, anonymous.userId, 'Y to X one'],
      [2, yuri.userId, anonymous.userId, 'Y to X two'],
    ]);
    // Read-only: a send to the anonymised conversation, or to the deleted member, is refused.
    const socket = await bed.connect(yuri);
    expect(ackError(await socket.emit('send_message', { recipientId: anonymous.userId, content: 'Still there?' }))).toEqual(
      expect.objectContaining({ error: ChatMessages.notMatched }),
    );
    expect(ackError(await socket.emit('send_message', { recipientId: xena.userId, content: 'Hello?' }))).toEqual(
      expect.objectContaining({ error: ChatMessages.notMatched }),
    );
    expect(ackError(await socket.emit('typing', { recipientId: anonymous.userId }))).toEqual(
      expect.objectContaining({ error: ChatMessages.notMatched }),
    );
    // The resume paths answer the kept messages.
    const synced = (await socket.emit('sync_messages', { since: new Date(0).toISOString() })) as SyncMessagesResult;
    expect(synced.messages.map((m) => m.content)).toEqual(['Y to X one', 'Y to X two']);
    const resumed = (await socket.emit('sync_messages', { conversations: [{ userId: anonymous.userId, afterSeq: 1 }] })) as SyncMessagesResult;
    expect(resumed.messages.map((m) => m.seq)).toEqual([2]);
    expect(await socket.emit('mark_as_read', { otherUserId: anonymous.userId })).toEqual({ readUpTo: 2 });
    socket.socket.disconnect();
    // Yuri's export names the conversation by the fresh id, closed.
    const yuriExport = (await exportOf(yuri.userId)).body;
    expect(yuriExport.conversations).toEqual([expect.objectContaining({ withUserId: anonymous.userId, closed: true })]);

    // Zed's conversation had nothing of his: gone. Wren's (closed) keeps Wren's message under another fresh id.
    expect((await bed.api<ConversationSummaryDto[]>(zed, 'GET', '/api/chat/conversations')).body).toEqual([]);
    const wrenExport = (await exportOf(wren.userId)).body;
    expect(wrenExport.conversations).toEqual([
      expect.objectContaining({ closed: true, messages: [expect.objectContaining({ content: 'W to X', direction: 'sent' })] }),
    ]);
    expect(wrenExport.conversations[0].withUserId).not.toBe(anonymous.userId);
    expect(wrenExport.conversations[0].withUserId).not.toBe(xena.userId);
    expect((await exportOf(xena.userId)).body).toEqual({ conversations: [] });

    // Again (a redelivery): nothing changes, no error.
    expect(await deleted(xena.userId)).toBe('handled');
    expect(await columnsHolding(bed.chat.dataSource, xena.userId)).toEqual([]);
    expect((await bed.api<ConversationSummaryDto[]>(yuri, 'GET', '/api/chat/conversations')).body).toEqual([
      expect.objectContaining({ userId: anonymous.userId, lastSeq: 2 }),
    ]);

    // Late events naming her are dropped: nothing of hers comes back.
    expect(await bed.deliver('profile.updated', aProfile(xena.userId, 'Xena again'), 99)).toBe('erased');
    expect(
      await bed.deliver('match.created', { matchId: randomUUID(), userIds: orderedPairOf(xena.userId, zed.userId), createdAt: new Date().toISOString() }),
    ).toBe('erased');
    expect(await columnsHolding(bed.chat.dataSource, xena.userId)).toEqual([]);
    expect((await bed.api<ConversationSummaryDto[]>(zed, 'GET', '/api/chat/conversations')).body).toEqual([]);

    // Yuri deletes his account too: the conversation (nothing of either left) and its stand-in go.
    expect(await deleted(yuri.userId)).toBe('handled');
    expect(await columnsHolding(bed.chat.dataSource, anonymous.userId)).toEqual([]);
  });
});
