import { orderedPairOf, ChatMessages } from '@mate/contracts';
import { PairGate } from '@mate/server-kit';
import { ackError, sendMessage, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 24 item 6: once a block or an unmatch has answered, nothing more from the other member is
 * accepted, although chat learns of it only when safety's event arrives. safety closes the pair
 * gate (ADR 0024) after its commit and before its answer; here the gate is closed exactly as
 * safety closes it (`PairGate.close` with the pair event's version, on the deployment's Redis and
 * prefix) and no event is delivered, so only the gate can refuse. The real two-service run is in
 * safety-service's gate.integration-spec.ts.
 */
describe('chat honours the pair gate before its projection knows (real gateway, PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;
  let gate: PairGate;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_pair_gate');
    gate = bed.chat.app.get(PairGate);
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const send = sendMessage;
  const storedBetween = async (x: ChatMember, y: ChatMember) =>
    (
      await bed.chat.dataSource.query(
        `SELECT count(*)::int AS n FROM message WHERE (sender_id = $1 AND recipient_id = $2) OR (sender_id = $2 AND recipient_id = $1)`,
        [x.userId, y.userId],
      )
    )[0].n as number;

  it('refuses the next message and typing once the gate closed, storing and delivering nothing, both ways', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    // A marker: Cat's conversation with Bob is open, and her message reaches him after anything refused.
    const cat = await bed.member('Cat');
    await bed.match(cat, bob);
    const [annSocket, bobSocket, catSocket] = [await bed.connect(ann), await bed.connect(bob), await bed.connect(cat)];
    await send(annSocket, bob, 'hello Bob');
    await bobSocket.next('new_message', (m) => m.senderId === ann.userId);

    // Bob blocks Ann: safety's commit made pair event 1, and the gate closed before its 200.
    await gate.close(bob.userId, ann.userId, 1);

    expect(ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: 'are you there?' }))).toMatchObject({
      error: ChatMessages.notMatched,
    });
    expect(ackError(await bobSocket.emit('send_message', { recipientId: ann.userId, content: 'bye' }))).toMatchObject({
      error: ChatMessages.notMatched,
    });
    expect(ackError(await annSocket.emit('typing', { recipientId: bob.userId })).error).toBe(ChatMessages.notMatched);
    expect(ackError(await annSocket.emit('stop_typing', { recipientId: bob.userId })).error).toBe(ChatMessages.notMatched);
    expect(await storedBetween(ann, bob)).toBe(1);

    await send(catSocket, bob, 'marker');
    await bobSocket.next('new_message', (m) => m.senderId === cat.userId);
    expect(bobSocket.all('new_message').filter((m) => m.senderId === ann.userId)).toHaveLength(1);
    expect(bobSocket.all('user_typing').filter((p) => p.userId === ann.userId)).toHaveLength(0);
    expect(annSocket.all('new_message')).toHaveLength(0);

    // When safety's event arrives the projection agrees; the gate changes nothing then.
    const outcome = await bed.deliver(
      'user.blocked',
      {
        pairId: orderedPairOf(ann.userId, bob.userId).join(':'),
        userIds: orderedPairOf(ann.userId, bob.userId),
        blockedBy: [bob.userId],
        blockerId: bob.userId,
        blockedId: ann.userId,
        endedMatchId: null,
        blockedAt: new Date().toISOString(),
      },
      1,
    );
    expect(outcome).toBe('handled');
    expect(ackError(await annSocket.emit('send_message', { recipientId: bob.userId, content: 'still?' })).error).toBe(ChatMessages.notMatched);
    expect(await storedBetween(ann, bob)).toBe(1);
  });

  it('a retry of a message stored before the gate closed is answered as stored (it was accepted then)', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const annSocket = await bed.connect(ann);
    const first = await send(annSocket, bob, 'sent before the block');
    await gate.close(ann.userId, bob.userId, 1);
    const retry = await annSocket.emit('send_message', { recipientId: bob.userId, content: 'sent before the block', clientId: first.clientId ?? undefined });
    expect(retry).toMatchObject({ id: first.id, seq: first.seq });
  });

  it('does not hold back a newer match: a gate closed at an older pair version than the match refuses nothing', async () => {
    const [eve, fay] = [await bed.member('Eve'), await bed.member('Fay')];
    const userIds = orderedPairOf(eve.userId, fay.userId);
    // Eve blocked Fay (pair event 1), unblocked (2), and they matched again under pair version 2.
    await gate.close(eve.userId, fay.userId, 1);
    await bed.deliver('match.created', { matchId: crypto.randomUUID(), userIds, createdAt: new Date().toISOString(), pairVersion: 2 });
    const [eveSocket, faySocket] = [await bed.connect(eve), await bed.connect(fay)];
    await send(eveSocket, fay, 'hello again');
    expect(await faySocket.emit('typing', { recipientId: eve.userId })).toEqual({ ok: true });
    await eveSocket.next('user_typing', (p) => p.userId === fay.userId);

    // Fay unmatches (pair event 3): the gate closes above the match's version and refuses it.
    await gate.close(fay.userId, eve.userId, 3);
    expect(ackError(await eveSocket.emit('send_message', { recipientId: fay.userId, content: 'why?' })).error).toBe(ChatMessages.notMatched);
    expect(await storedBetween(eve, fay)).toBe(1);
  });
});
