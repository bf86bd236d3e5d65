import { randomUUID } from 'node:crypto';
import { orderedPairOf, ChatMessages, ErrorCode, type ConversationPageDto } from '@mate/contracts';
import { PairGate } from '@mate/server-kit';
import { ackError, sendMessage, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 27: a match is usable the moment its like has answered. Matching opens the pair gate with
 * the match (id, time, pair version) after its commit and before its answer (ADR 0029); here the
 * gate is opened exactly as matching opens it and match.created is delivered late or never, so only
 * the gate can let the pair talk. The real two-service run (matching's like, then chat with its
 * event queue paused) is matching-service's match-gate.integration-spec.ts.
 */
describe('chat opens a conversation from the pair gate before match.created arrives (real gateway, PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;
  let gate: PairGate;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_match_gate');
    gate = bed.chat.app.get(PairGate);
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const send = sendMessage;
  const conversations = async (x: ChatMember, y: ChatMember) => {
    const [a, b] = orderedPairOf(x.userId, y.userId);
    return (await bed.chat.dataSource.query(
      'SELECT id, match_id, closed_at, last_seq, history_from_seq FROM conversation WHERE member_a = $1 AND member_b = $2',
      [a, b],
    )) as { id: string; match_id: string; closed_at: Date | null; last_seq: number; history_from_seq: number }[];
  };
  /** What matching does after the like's commit: the gate open at the match's pair version, with the match. */
  const matchInGate = async (x: ChatMember, y: ChatMember, pairVersion = 0) => {
    const match = { matchId: randomUUID(), matchedAt: new Date(Date.now() - 5) };
    await gate.open(x.userId, y.userId, pairVersion, match);
    return match;
  };
  const matchCreated = (x: ChatMember, y: ChatMember, match: { matchId: string; matchedAt: Date }, pairVersion = 0) =>
    bed.deliver('match.created', {
      matchId: match.matchId,
      userIds: orderedPairOf(x.userId, y.userId),
      createdAt: match.matchedAt.toISOString(),
      pairVersion,
    });

  it('sends both ways and loads the conversation at once; the late match.created changes nothing', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    // No match yet: refused, and nothing is recorded from an empty gate.
    expect(ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: 'too soon' })).error).toBe(ChatMessages.notMatched);
    expect(await conversations(ann, bob)).toEqual([]);

    const match = await matchInGate(ann, bob);
    // 'Send Message' on the match popup: the page first, then the message, before any event.
    const page = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}`);
    expect(page).toMatchObject({ status: 200, body: { userId: ann.userId, messages: [], lastSeq: 0 } });
    const hello = await send(bobSocket, ann, 'hello Ann');
    expect(hello.seq).toBe(1);
    await annSocket.next('new_message', (m) => m.id === hello.id);
    expect((await send(annSocket, bob, 'hi Bob')).seq).toBe(2);
    const list = await bed.api<{ userId: string; matchedAt: string }[]>(ann, 'GET', '/api/chat/conversations');
    expect(list.body).toEqual([expect.objectContaining({ userId: bob.userId, matchedAt: match.matchedAt.toISOString() })]);

    // The conversation is the one the event opens (its id is the match's), and the event, late, adds nothing.
    expect(await conversations(ann, bob)).toEqual([
      { id: match.matchId, match_id: match.matchId, closed_at: null, last_seq: 2, history_from_seq: 0 },
    ]);
    expect(await matchCreated(ann, bob, match)).toBe('handled');
    expect(await conversations(ann, bob)).toEqual([
      { id: match.matchId, match_id: match.matchId, closed_at: null, last_seq: 2, history_from_seq: 0 },
    ]);
    expect((await send(bobSocket, ann, 'still here')).seq).toBe(3);
  });

  it('a block after the match still wins: the gate closed above the match refuses, and a late open changes nothing', async () => {
    const [cat, dan] = [await bed.member('Cat'), await bed.member('Dan')];
    const [catSocket, danSocket] = [await bed.connect(cat), await bed.connect(dan)];
    const match = await matchInGate(cat, dan);
    await send(catSocket, dan, 'hello Dan');

    // Dan blocks Cat (pair event 1): safety closes the gate before its answer; chat has no event yet.
    await gate.close(dan.userId, cat.userId, 1);
    expect(ackError(await catSocket.emit('send_message', { recipientId: dan.userId, content: 'are you there?' })).error).toBe(
      ChatMessages.notMatched,
    );
    expect(ackError(await danSocket.emit('send_message', { recipientId: cat.userId, content: 'bye' })).error).toBe(ChatMessages.notMatched);
    // matching's write of the match, arriving after the block's (a slow like answer): ranked below, ignored.
    await gate.open(cat.userId, dan.userId, 0, match);
    expect(ackError(await catSocket.emit('send_message', { recipientId: dan.userId, content: 'again?' })).error).toBe(ChatMessages.notMatched);
    expect((await conversations(cat, dan))[0]).toMatchObject({ last_seq: 1 });

    // A pair gate closed before chat ever heard of the match: nothing is opened from it.
    const [eve, fay] = [await bed.member('Eve'), await bed.member('Fay')];
    const eveSocket = await bed.connect(eve);
    await matchInGate(eve, fay);
    await gate.close(fay.userId, eve.userId, 1);
    expect(ackError(await eveSocket.emit('send_message', { recipientId: fay.userId, content: 'hi' })).error).toBe(ChatMessages.notMatched);
    expect((await bed.api(eve, 'GET', `/api/chat/conversation/${fay.userId}`)).status).toBe(404);
    expect(await conversations(eve, fay)).toEqual([]);
  });

  it('a block chat already applied keeps the pair closed whatever the gate says of an older match', async () => {
    const [gus, hal] = [await bed.member('Gus'), await bed.member('Hal')];
    const gusSocket = await bed.connect(gus);
    const userIds = orderedPairOf(gus.userId, hal.userId);
    // Chat applied Hal's block (pair event 1); the gate entry of the match made under version 0 lingers.
    await matchInGate(gus, hal, 0);
    const pairId = userIds.join(':');
    const blocked = { pairId, userIds, blockedBy: [hal.userId], blockerId: hal.userId, blockedId: gus.userId, endedMatchId: null, blockedAt: new Date().toISOString() };
    expect(await bed.deliver('user.blocked', blocked, 1)).toBe('handled');
    expect(ackError(await gusSocket.emit('send_message', { recipientId: hal.userId, content: 'hi' })).error).toBe(ChatMessages.notMatched);
    expect((await conversations(gus, hal))[0].closed_at).not.toBeNull();
  });

  it('a re-match the projection has not heard of reopens the conversation, history hidden, even while the old one looks open', async () => {
    const [ivy, jon] = [await bed.member('Ivy'), await bed.member('Jon')];
    const [ivySocket, jonSocket] = [await bed.connect(ivy), await bed.connect(jon)];
    const first = await bed.match(ivy, jon);
    await send(ivySocket, jon, 'before');
    // Ivy blocked Jon (1) and unblocked (2), they matched again under version 2: chat heard none of it.
    const again = await matchInGate(ivy, jon, 2);
    const after = await send(jonSocket, ivy, 'after');
    expect(after.seq).toBe(2);
    expect(await conversations(ivy, jon)).toEqual([
      { id: first, match_id: again.matchId, closed_at: null, last_seq: 2, history_from_seq: 1 },
    ]);
    const page = await bed.api<ConversationPageDto>(ivy, 'GET', `/api/chat/conversation/${jon.userId}`);
    expect(page.body.messages.map((m) => m.content)).toEqual(['after']);
  });

  it('an erased member’s match is not brought back from a gate entry that outlived the erasure', async () => {
    const [mo, ned] = [await bed.member('Mo'), await bed.member('Ned')];
    const moSocket = await bed.connect(mo);
    await matchInGate(mo, ned);
    expect(await bed.deliver('user.deleted', { userId: ned.userId, deletedAt: new Date().toISOString() })).toBe('handled');
    expect(ackError(await moSocket.emit('send_message', { recipientId: ned.userId, content: 'hi?' })).error).toBe(ChatMessages.notMatched);
    expect((await bed.api(mo, 'GET', `/api/chat/conversation/${ned.userId}`)).status).toBe(404);
    expect(await conversations(mo, ned)).toEqual([]);
  });

  it('Redis unreachable while the gate is read: 503 (retryable), nothing stored, and the retry succeeds', async () => {
    const [kim, lou] = [await bed.member('Kim'), await bed.member('Lou')];
    const kimSocket = await bed.connect(kim);
    await matchInGate(kim, lou);
    const read = jest.spyOn(gate, 'read').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      const refused = ackError(await kimSocket.emit('send_message', { recipientId: lou.userId, content: 'hi', clientId: 'kim-1' }));
      expect(refused.code).toBe(ErrorCode.ServiceUnavailable);
    } finally {
      read.mockRestore();
    }
    expect(await conversations(kim, lou)).toEqual([]);
    const retry = await kimSocket.emit('send_message', { recipientId: lou.userId, content: 'hi', clientId: 'kim-1' });
    expect(retry).toMatchObject({ seq: 1, clientId: 'kim-1' });
  });
});
