import { randomUUID } from 'node:crypto';
import {
  ChatMessages,
  INTERNAL_TOKEN_HEADER,
  orderedPairOf,
  pairIdOf,
  type ChatMessageDto,
  type ConversationPageDto,
  type ConversationSummaryDto,
  type MarkReadResultDto,
  type PairMessagesSnapshotDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { BaseServiceEnv, INTERNAL_ONLY_MESSAGE } from '@mate/server-kit';
import { ackError, sendMessage, startChatTestBed, type ChatMember, type ChatTestBed, type MemberConnection } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 10 in chat: safety's pair events (user.blocked, user.unblocked, match.ended; one versioned
 * aggregate per pair, each carrying the pair's whole block state) close the pair's conversation for
 * both members, whatever order they arrive in relative to match.created; a genuinely new match
 * reopens it with the older history hidden; moderators read the pair's messages through the
 * internal snapshot route.
 */
describe('chat honours blocks and unmatches (real gateway, PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;
  const internalToken = () => bed.chat.env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN;

  beforeAll(async () => {
    // The longest the typing relay may trust an open pair: a block must still stop typing at once.
    bed = await startChatTestBed('chat_safety', { env: { CHAT_TYPING_PAIR_CACHE_MS: '1000' } });
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const iso = (ms = Date.now()) => new Date(ms).toISOString();
  const pairOf = (x: ChatMember, y: ChatMember) => {
    const userIds = orderedPairOf(x.userId, y.userId);
    return { pairId: pairIdOf(x.userId, y.userId), userIds };
  };

  /** safety's events for the pair, as its outbox writes them (the pair's version `version`). */
  const block = (blocker: ChatMember, blocked: ChatMember, version: number, extra: { endedMatchId?: string | null; blockedBy?: ChatMember[]; at?: string } = {}) =>
    bed.deliver(
      'user.blocked',
      {
        ...pairOf(blocker, blocked),
        blockedBy: (extra.blockedBy ?? [blocker]).map((m) => m.userId),
        blockerId: blocker.userId,
        blockedId: blocked.userId,
        endedMatchId: extra.endedMatchId ?? null,
        blockedAt: extra.at ?? iso(),
      },
      version,
    );
  const unblock = (blocker: ChatMember, blocked: ChatMember, version: number, extra: { blockedBy?: ChatMember[]; at?: string } = {}) =>
    bed.deliver(
      'user.unblocked',
      {
        ...pairOf(blocker, blocked),
        blockedBy: (extra.blockedBy ?? []).map((m) => m.userId),
        blockerId: blocker.userId,
        blockedId: blocked.userId,
        unblockedAt: extra.at ?? iso(),
      },
      version,
    );
  const unmatch = (by: ChatMember, other: ChatMember, matchId: string, version: number, at = iso()) =>
    bed.deliver('match.ended', { ...pairOf(by, other), blockedBy: [], matchId, endedBy: by.userId, reason: 'unmatch', endedAt: at }, version);
  /** matching's event; `pairVersion` omitted is an event from before versions (times compared). */
  const matchCreated = (x: ChatMember, y: ChatMember, matchId: string, createdAt: string, pairVersion?: number) =>
    bed.deliver('match.created', { matchId, userIds: orderedPairOf(x.userId, y.userId), createdAt, ...(pairVersion === undefined ? {} : { pairVersion }) });

  const send = sendMessage;
  const list = async (member: ChatMember) => {
    const res = await bed.api<ConversationSummaryDto[]>(member, 'GET', '/api/chat/conversations');
    expect(res.status).toBe(200);
    return res.body;
  };
  const listed = async (member: ChatMember) => (await list(member)).map((r) => r.userId);
  const page = (member: ChatMember, other: ChatMember, query = '') =>
    bed.api<ConversationPageDto>(member, 'GET', `/api/chat/conversation/${other.userId}${query}`);
  const unread = async (member: ChatMember) => (await bed.api<{ count: number }>(member, 'GET', '/api/chat/unread-count')).body.count;
  const storedBetween = async (x: ChatMember, y: ChatMember) =>
    (
      await bed.chat.dataSource.query(
        `SELECT count(*)::int AS n FROM message WHERE (sender_id = $1 AND recipient_id = $2) OR (sender_id = $2 AND recipient_id = $1)`,
        [x.userId, y.userId],
      )
    )[0].n as number;
  const snapshot = (x: string, y: string, query = '', headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: internalToken() }) =>
    bed.chat.call<PairMessagesSnapshotDto & { error?: string }>('GET', `/internal/chat/pairs/${x}/${y}/messages${query}`, { headers });

  /** Everything a member can do with the other refuses or excludes (both directions are checked by the callers). */
  async function expectClosedFor(me: ChatMember, meSocket: MemberConnection, other: ChatMember): Promise<void> {
    expect(await listed(me)).not.toContain(other.userId);
    expect((await page(me, other)).status).toBe(404);
    expect((await page(me, other)).body).toMatchObject({ error: ChatMessages.conversationNotFound });
    expect((await page(me, other, '?after=0')).status).toBe(404);
    expect((await bed.api(me, 'POST', `/api/chat/conversation/${other.userId}/read`)).status).toBe(404);
    expect(ackError(await meSocket.emit('mark_as_read', { otherUserId: other.userId })).error).toBe(ChatMessages.conversationNotFound);
    const before = await storedBetween(me, other);
    const refused = ackError(await meSocket.emit('send_message', { recipientId: other.userId, content: 'still there?' }));
    expect(refused).toMatchObject({ error: ChatMessages.notMatched });
    expect(await storedBetween(me, other)).toBe(before);
    expect(ackError(await meSocket.emit('typing', { recipientId: other.userId })).error).toBe(ChatMessages.notMatched);
    expect(ackError(await meSocket.emit('stop_typing', { recipientId: other.userId })).error).toBe(ChatMessages.notMatched);
    expect(
      (await meSocket.emit('sync_messages', { conversations: [{ userId: other.userId, afterSeq: 0 }], since: iso(0) })) as SyncMessagesResult,
    ).toEqual({ messages: [], hasMore: false });
  }

  /** `to` has received no typing from `from` beyond `seen`: a later relay from `marker` arrived, in stream order, after any. */
  async function expectNoTypingRelayed(to: MemberConnection, from: ChatMember, seen: number, marker: MemberConnection): Promise<void> {
    expect(await marker.emit('typing', { recipientId: to.member.userId })).toEqual({ ok: true });
    await to.next('user_typing', (p) => p.userId === marker.member.userId);
    expect(to.all('user_typing').filter((p) => p.userId === from.userId)).toHaveLength(seen);
    expect(to.all('user_stopped_typing').filter((p) => p.userId === from.userId)).toHaveLength(0);
  }

  it('a block closes the conversation for both members at once: not listed, page 404, send 403 (nothing stored), typing not relayed, unread gone; history kept', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const matchId = await bed.match(ann, bob);
    // Markers: each has another open conversation whose typing arrives after anything refused.
    const [cat, dan] = [await bed.member('Cat'), await bed.member('Dan')];
    await bed.match(cat, bob);
    await bed.match(dan, ann);
    const [annSocket, bobSocket, catSocket, danSocket] = [await bed.connect(ann), await bed.connect(bob), await bed.connect(cat), await bed.connect(dan)];
    await send(annSocket, bob, 'hello Bob');
    await send(bobSocket, ann, 'hi Ann');
    await send(annSocket, bob, 'how are you?');
    expect(await unread(bob)).toBe(2);
    // Typing is relayed while open (and the relay has the pair cached as open).
    expect(await annSocket.emit('typing', { recipientId: bob.userId })).toEqual({ ok: true });
    expect(await bobSocket.next('user_typing', (p) => p.userId === ann.userId)).toEqual({ userId: ann.userId });
    expect(await bobSocket.emit('typing', { recipientId: ann.userId })).toEqual({ ok: true });
    await annSocket.next('user_typing', (p) => p.userId === bob.userId);

    expect(await block(ann, bob, 1, { endedMatchId: matchId })).toBe('handled');
    // At once, though the relay had the pair cached as open a moment ago.
    expect(ackError(await annSocket.emit('typing', { recipientId: bob.userId })).error).toBe(ChatMessages.notMatched);
    expect(ackError(await bobSocket.emit('typing', { recipientId: ann.userId })).error).toBe(ChatMessages.notMatched);

    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
    expect(await listed(bob)).toEqual([cat.userId]);
    expect(await listed(ann)).toEqual([dan.userId]);
    expect(await unread(bob)).toBe(0);
    await expectNoTypingRelayed(bobSocket, ann, 1, catSocket);
    await expectNoTypingRelayed(annSocket, bob, 1, danSocket);
    expect(bobSocket.all('new_message').map((m) => m.content)).toEqual(['hello Bob', 'how are you?']);

    // History stays for moderation.
    expect(await storedBetween(ann, bob)).toBe(3);
    const rows = await bed.chat.dataSource.query('SELECT closed_at IS NOT NULL AS closed FROM conversation WHERE id = $1', [matchId]);
    expect(rows).toEqual([{ closed: true }]);
  });

  it('an unmatch (match.ended) closes it for both; the ended match arriving again reopens nothing', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const matchId = await bed.match(ann, bob);
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await send(bobSocket, ann, 'hey');

    expect(await unmatch(bob, ann, matchId, 1)).toBe('handled');
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);

    expect(await matchCreated(ann, bob, matchId, iso())).toBe('handled');
    expect(await listed(ann)).not.toContain(bob.userId);
    expect((await page(bob, ann)).status).toBe(404);
  });

  it('ignores stale and repeated pair events (versions): an older unblock never lifts a newer block, and an unblock reopens nothing', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const matchId = await bed.match(ann, bob);
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];

    // Version 2 (Bob blocks too) arrives before version 1 (Ann's block).
    expect(await block(bob, ann, 2, { blockedBy: [ann, bob], endedMatchId: matchId })).toBe('handled');
    expect(await block(ann, bob, 1, { endedMatchId: matchId })).toBe('stale');
    expect(await unblock(ann, bob, 1)).toBe('stale');
    const blocked = await bed.chat.dataSource.query('SELECT cardinality(blocked_by) > 0 AS blocked FROM kit_pair WHERE member_a = $1 AND member_b = $2', orderedPairOf(ann.userId, bob.userId));
    expect(blocked).toEqual([{ blocked: true }]);
    await expectClosedFor(ann, annSocket, bob);

    // Ann lifts hers, Bob still blocks: still closed. Then Bob lifts his: closed all the same.
    expect(await unblock(ann, bob, 3, { blockedBy: [bob] })).toBe('handled');
    await expectClosedFor(bob, bobSocket, ann);
    expect(await unblock(bob, ann, 4)).toBe('handled');
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
    const state = await bed.chat.dataSource.query('SELECT cardinality(blocked_by) > 0 AS blocked FROM kit_pair WHERE member_a = $1 AND member_b = $2', orderedPairOf(ann.userId, bob.userId));
    expect(state).toEqual([{ blocked: false }]);
  });

  it('keeps the conversation closed when user.blocked arrives before the match.created it ended, and when an unblock follows', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const matchedAt = iso(Date.now() - 1_000);
    const matchId = randomUUID();
    // safety knew of no match (endedMatchId null); chat hears of the match after the block.
    expect(await block(ann, bob, 1)).toBe('handled');
    expect(await matchCreated(ann, bob, matchId, matchedAt)).toBe('handled');
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
    // The block ended that match: unblocking does not restore it.
    expect(await unblock(ann, bob, 2)).toBe('handled');
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
  });

  it("never reopens for the ended match's match.created, even one stamped after the unmatch (another service's clock)", async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const matchId = randomUUID();
    expect(await unmatch(ann, bob, matchId, 1)).toBe('handled');
    expect(await matchCreated(ann, bob, matchId, iso(Date.now() + 60_000))).toBe('handled');
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
  });

  it('reopens on a new match after an unblock, the old history hidden from both (pages, list, sync, unread, read) and seqs growing on', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const firstMatch = await bed.match(ann, bob);
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await send(annSocket, bob, 'old one');
    await send(bobSocket, ann, 'old two');
    await send(annSocket, bob, 'old three'); // unread by Bob
    expect(await block(bob, ann, 1, { endedMatchId: firstMatch })).toBe('handled');
    const unblockedAt = Date.now();
    expect(await unblock(bob, ann, 2, { at: iso(unblockedAt) })).toBe('handled');
    // New mutual likes: a new match, created after the unblock.
    expect(await matchCreated(ann, bob, randomUUID(), iso(unblockedAt + 5))).toBe('handled');

    for (const [me, other] of [
      [ann, bob],
      [bob, ann],
    ] as const) {
      const [row] = (await list(me)).filter((r) => r.userId === other.userId);
      // lastSeq is the seq of the last message the member can see (issue 24 item 10): none yet. A
      // page still answers the conversation's last seq, where a client holding nothing resumes.
      expect(row).toMatchObject({ lastMessage: null, lastMessageSenderId: null, unreadCount: 0, lastSeq: 0 });
      expect(row.lastMessageTime).toBe(row.matchedAt);
      expect(await unread(me)).toBe(0);
      for (const query of ['', '?after=0', '?before=4', '?before=3', '?limit=1']) {
        const res = await page(me, other, query);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ messages: [], hasMore: false, nextBefore: null, lastSeq: 3 });
      }
    }
    expect((await annSocket.emit('sync_messages', { conversations: [{ userId: bob.userId, afterSeq: 0 }] })) as SyncMessagesResult).toEqual({
      messages: [],
      hasMore: false,
    });
    expect((await bobSocket.emit('sync_messages', { since: iso(0) })) as SyncMessagesResult).toEqual({ messages: [], hasMore: false });

    // The conversation goes on from seq 4; only the new messages show.
    const first = await send(annSocket, bob, 'new one');
    const second = await send(bobSocket, ann, 'new two');
    expect([first.seq, second.seq]).toEqual([4, 5]);
    expect((await page(ann, bob)).body).toMatchObject({ hasMore: false, nextBefore: null, lastSeq: 5 });
    expect((await page(ann, bob)).body.messages.map((m) => m.content)).toEqual(['new one', 'new two']);
    expect((await list(bob)).find((r) => r.userId === ann.userId)).toMatchObject({ lastSeq: 5, lastMessage: 'new two' });
    const older = await page(ann, bob, '?limit=1');
    expect(older.body).toMatchObject({ hasMore: true, nextBefore: 5 });
    expect((await page(ann, bob, '?before=5')).body).toMatchObject({ hasMore: false, nextBefore: null });
    expect((await page(ann, bob, '?before=5')).body.messages.map((m) => m.content)).toEqual(['new one']);
    expect((await page(ann, bob, '?after=0')).body.messages.map((m) => m.seq)).toEqual([4, 5]);
    const synced = (await annSocket.emit('sync_messages', { conversations: [{ userId: bob.userId, afterSeq: 1 }] })) as SyncMessagesResult;
    expect(synced.messages.map((m) => m.content)).toEqual(['new one', 'new two']);
    const bySince = (await bobSocket.emit('sync_messages', { since: iso(0) })) as SyncMessagesResult;
    expect(bySince.messages.map((m) => m.content)).toEqual(['new one', 'new two']);
    const [annRow] = (await list(ann)).filter((r) => r.userId === bob.userId);
    expect(annRow).toMatchObject({ lastMessage: 'new two', unreadCount: 1, lastSeq: 5 });
    expect(await unread(ann)).toBe(1);
    expect((await annSocket.emit('mark_as_read', { otherUserId: bob.userId })) as MarkReadResultDto).toEqual({ readUpTo: 5 });
    expect(await unread(ann)).toBe(0);

    // message.sent says `first` for the first message of the new match.
    const firstFlags = await bed.chat.dataSource.query(
      `SELECT (body->'payload'->>'seq')::int AS seq, (body->'payload'->>'first')::boolean AS first FROM outbox
        WHERE name = 'message.sent' AND body->'payload'->>'conversationId' = $1 ORDER BY 1`,
      [firstMatch],
    );
    expect(firstFlags.map((r: { first: boolean }) => r.first)).toEqual([true, false, false, true, false]);
  });

  it('opens a match that arrived while the pair was blocked once the earlier unblock arrives (late), history before it hidden', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const firstMatch = await bed.match(ann, bob);
    const annSocket = await bed.connect(ann);
    await send(annSocket, bob, 'before the block');
    expect(await block(ann, bob, 1, { endedMatchId: firstMatch })).toBe('handled');
    const unblockedAt = Date.now();
    // The new match (after the unblock) reaches chat before the unblock does.
    expect(await matchCreated(ann, bob, randomUUID(), iso(unblockedAt + 5))).toBe('handled');
    await expectClosedFor(ann, annSocket, bob);
    expect(await unblock(ann, bob, 2, { at: iso(unblockedAt) })).toBe('handled');
    expect(await listed(ann)).toContain(bob.userId);
    expect(await listed(bob)).toContain(ann.userId);
    expect((await page(bob, ann)).body).toMatchObject({ messages: [], lastSeq: 1 });
    expect((await send(annSocket, bob, 'after')).seq).toBe(2);
  });

  it("never opens a match made under an older pair version, whatever its clock says (matching behind a quick block and unblock)", async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    expect(await block(ann, bob, 1)).toBe('handled');
    expect(await unblock(ann, bob, 2)).toBe('handled');
    // Matching had applied neither when Bob's like met Ann's old one: version 0, stamped later.
    expect(await matchCreated(ann, bob, randomUUID(), iso(Date.now() + 60_000), 0)).toBe('handled');
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await expectClosedFor(ann, annSocket, bob);
    await expectClosedFor(bob, bobSocket, ann);
  });

  it("opens a match made under the newest pair version even when matching's clock is behind safety's", async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const unblockedAt = Date.now();
    expect(await block(ann, bob, 1, { at: iso(unblockedAt - 1_000) })).toBe('handled');
    expect(await unblock(ann, bob, 2, { at: iso(unblockedAt) })).toBe('handled');
    // Made after matching applied the unblock (version 2), on a clock 5 s behind.
    expect(await matchCreated(ann, bob, randomUUID(), iso(unblockedAt - 5_000), 2)).toBe('handled');
    expect(await listed(ann)).toContain(bob.userId);
    expect(await listed(bob)).toContain(ann.userId);
    // The unmatch of that match (version 3) closes it again; its match.created again changes nothing.
    expect(await unmatch(bob, ann, randomUUID(), 3)).toBe('handled');
    expect(await listed(ann)).not.toContain(bob.userId);
  });

  it('opens a versioned match that arrived before the unblock it was made after, once that unblock lands', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    expect(await block(bob, ann, 1)).toBe('handled');
    expect(await matchCreated(ann, bob, randomUUID(), iso(), 2)).toBe('handled');
    expect(await listed(ann)).not.toContain(bob.userId);
    expect(await unblock(bob, ann, 2)).toBe('handled');
    expect(await listed(ann)).toContain(bob.userId);
    expect(await listed(bob)).toContain(ann.userId);
  });

  it("never answers or pushes a hidden message again: a send after a re-match with a clientId used before it is 409", async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const firstMatch = await bed.match(ann, bob);
    const annSocket = await bed.connect(ann);
    const old = await annSocket.emit('send_message', { recipientId: bob.userId, content: 'hidden after the re-match', clientId: 'old-client-id' });
    expect(old).toMatchObject({ seq: 1 });
    expect(await block(bob, ann, 1, { endedMatchId: firstMatch })).toBe('handled');
    const unblockedAt = Date.now();
    expect(await unblock(bob, ann, 2, { at: iso(unblockedAt) })).toBe('handled');
    expect(await matchCreated(ann, bob, randomUUID(), iso(unblockedAt + 5))).toBe('handled');

    const bobSocket = await bed.connect(bob);
    // A late retry of the old send (or a reused id): not the hidden message, and nothing pushed.
    const retried = ackError(
      await annSocket.emit('send_message', { recipientId: bob.userId, content: 'hidden after the re-match', clientId: 'old-client-id' }),
    );
    expect(retried.error).toBe(ChatMessages.clientIdReused);
    expect((await send(annSocket, bob, 'after the re-match')).seq).toBe(2);
    await bobSocket.next('new_message', (m) => m.content === 'after the re-match');
    expect(bobSocket.all('new_message').map((m) => m.content)).toEqual(['after the re-match']);
    expect((await page(bob, ann)).body.messages.map((m) => m.content)).toEqual(['after the re-match']);
  });

  it('ends closed whichever of a block and its pair\'s match.created commits first, when they race', async () => {
    const pairs: [ChatMember, ChatMember][] = [];
    for (let i = 0; i < 8; i++) pairs.push([await bed.member(`A${i}`), await bed.member(`B${i}`)]);
    const matchedAt = iso(Date.now() - 1_000);
    const outcomes = await Promise.all(
      pairs.flatMap(([x, y], i) => {
        const matchId = randomUUID();
        const both = [block(x, y, 1, { endedMatchId: i % 2 ? matchId : null }), matchCreated(x, y, matchId, matchedAt)];
        return i % 2 ? both : both.reverse();
      }),
    );
    expect(outcomes.every((o) => o === 'handled')).toBe(true);
    for (const [x, y] of pairs) {
      const rows = await bed.chat.dataSource.query(
        'SELECT closed_at IS NOT NULL AS closed FROM conversation WHERE member_a = $1 AND member_b = $2',
        orderedPairOf(x.userId, y.userId),
      );
      expect(rows).toEqual([{ closed: true }]);
      expect(await listed(x)).toEqual([]);
    }
  });

  it('skips a pair event it cannot read (no pair named), and fails closed on a block whose state is unreadable', async () => {
    const [ann, bob] = await bed.pair();
    const annSocket = await bed.connect(ann);
    const unreadable = { ...pairOf(ann, bob), userIds: ['x', 'y'], blockedBy: [ann.userId], blockerId: ann.userId, blockedId: bob.userId, endedMatchId: null, blockedAt: iso() };
    expect(await bed.deliver('user.blocked', unreadable as never, 1)).toBe('unreadable');
    expect(await listed(ann)).toEqual([bob.userId]);
    const noState = { ...pairOf(ann, bob), blockedBy: 'everyone', blockerId: ann.userId, blockedId: bob.userId, endedMatchId: null, blockedAt: iso() };
    expect(await bed.deliver('user.blocked', noState as never, 2)).toBe('handled');
    await expectClosedFor(ann, annSocket, bob);
  });

  it('serves moderators the pair snapshot: newest first cut, oldest first, either id order, closed and hidden history included', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const firstMatch = await bed.match(ann, bob);
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    const sent: ChatMessageDto[] = [];
    for (let i = 1; i <= 12; i++) sent.push(await send(i % 2 ? annSocket : bobSocket, i % 2 ? bob : ann, `m${i}`));
    // Closed by an unmatch, re-matched, more messages: the snapshot sees all of them.
    expect(await unmatch(ann, bob, firstMatch, 1)).toBe('handled');
    expect(await matchCreated(ann, bob, randomUUID(), iso(Date.now() + 5))).toBe('handled');
    for (let i = 13; i <= 24; i++) sent.push(await send(i % 2 ? annSocket : bobSocket, i % 2 ? bob : ann, `m${i}`));
    expect((await page(ann, bob)).body.messages).toHaveLength(12);
    expect(await block(bob, ann, 2)).toBe('handled');
    expect(await listed(ann)).not.toContain(bob.userId);

    const contents = (res: { body: PairMessagesSnapshotDto }) => res.body.messages.map((m) => m.content);
    const byDefault = await snapshot(ann.userId, bob.userId);
    expect(byDefault.status).toBe(200);
    expect(contents(byDefault)).toEqual(sent.slice(4).map((m) => m.content)); // the newest 20, oldest first
    expect(byDefault.body.messages[0]).toEqual({
      id: sent[4].id,
      seq: sent[4].seq,
      senderId: sent[4].senderId,
      recipientId: sent[4].recipientId,
      content: 'm5',
      createdAt: sent[4].createdAt,
    });
    expect((await snapshot(bob.userId, ann.userId)).body).toEqual(byDefault.body);
    expect((await snapshot(bob.userId.toUpperCase(), ann.userId)).body).toEqual(byDefault.body);
    expect(contents(await snapshot(ann.userId, bob.userId, '?limit=3'))).toEqual(['m22', 'm23', 'm24']);
    expect(contents(await snapshot(ann.userId, bob.userId, '?limit=50'))).toHaveLength(24);
    // `before` a message's time excludes it and everything after.
    const before = sent[3].createdAt;
    const cut = await snapshot(ann.userId, bob.userId, `?before=${encodeURIComponent(before)}&limit=2`);
    expect(contents(cut)).toEqual(sent.filter((m) => m.createdAt < before).slice(-2).map((m) => m.content));
    expect(contents(cut)).toContain('m3');
    expect((await snapshot(ann.userId, bob.userId, `?before=${encodeURIComponent(iso(0))}`)).body).toEqual({ messages: [] });
    // Strangers, oneself: nothing.
    const eve = await bed.member('Eve');
    expect((await snapshot(ann.userId, eve.userId)).body).toEqual({ messages: [] });
    expect((await snapshot(ann.userId, ann.userId)).body).toEqual({ messages: [] });
  });

  it('refuses the snapshot without the internal credential (403) and bad input (400)', async () => {
    const [ann, bob] = await bed.pair();
    const annSocket = await bed.connect(ann);
    await send(annSocket, bob, 'private');
    const path = `/internal/chat/pairs/${ann.userId}/${bob.userId}/messages`;
    for (const headers of [{}, { [INTERNAL_TOKEN_HEADER]: 'guess' }] as Record<string, string>[]) {
      const res = await bed.chat.call('GET', path, { headers });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(expect.objectContaining({ error: INTERNAL_ONLY_MESSAGE }));
    }
    // A member's token is no credential, and the gateway's edge does not route it.
    expect((await bed.chat.call('GET', path, { token: ann.token })).status).toBe(403);
    expect([403, 404]).toContain((await bed.api(ann, 'GET', path)).status);

    for (const query of [
      '?limit=0',
      '?limit=51',
      '?limit=abc',
      '?limit=1.5',
      '?before=yesterday',
      '?before=2026-13-01T00:00:00Z',
      '?limit=1&limit=2',
      '?unknown=1',
    ]) {
      const res = await snapshot(ann.userId, bob.userId, query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(typeof res.body.error).toBe('string');
    }
    expect((await snapshot('not-a-uuid', bob.userId)).status).toBe(400);
    expect((await snapshot(ann.userId, 'not-a-uuid')).status).toBe(400);
    expect((await snapshot(ann.userId, bob.userId)).body.messages.map((m) => m.content)).toEqual(['private']);
  });
});
