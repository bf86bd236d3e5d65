import { ChatMessages, type ChatMessageDto, type ConversationSummaryDto } from '@mate/contracts';
import {
  ackError,
  aProfile,
  sendMessage, startChatTestBed,
  type ChatMember,
  type ChatTestBed,
  type MemberConnection,
} from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 13 in chat: auth-service's user.suspended / user.unsuspended (the whole suspension state
 * on the `user` aggregate). While a member is suspended no message is stored to or from them and
 * no typing is relayed, both ways; their conversations stay listed and readable, and an
 * unsuspend restores everything.
 */
describe('chat honours a suspension (real gateway, PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;

  beforeAll(async () => {
    // The longest the typing relay may trust an open pair: a suspension must still stop typing at once.
    bed = await startChatTestBed('chat_suspension', { env: { CHAT_TYPING_PAIR_CACHE_MS: '1000' } });
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  const suspend = (member: ChatMember, version: number) =>
    bed.deliver(
      'user.suspended',
      { userId: member.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() },
      version,
    );
  const unsuspend = (member: ChatMember, version: number) =>
    bed.deliver(
      'user.unsuspended',
      { userId: member.userId, suspended: false, unsuspendedAt: new Date().toISOString() },
      version,
    );
  const sendAck = (from: MemberConnection, to: ChatMember, content: string) =>
    from.emit('send_message', { recipientId: to.userId, content });
  const send = sendMessage;
  const stored = async (x: ChatMember, y: ChatMember) =>
    (
      await bed.chat.dataSource.query(
        `SELECT count(*)::int AS n FROM message WHERE (sender_id = $1 AND recipient_id = $2) OR (sender_id = $2 AND recipient_id = $1)`,
        [x.userId, y.userId],
      )
    )[0].n as number;
  const listed = async (member: ChatMember) =>
    (await bed.api<ConversationSummaryDto[]>(member, 'GET', '/api/chat/conversations')).body.map(
      (r) => r.userId,
    );

  /** Neither member can message or type to the other; nothing is stored. */
  async function expectRefusedBothWays(
    x: ChatMember,
    xSocket: MemberConnection,
    y: ChatMember,
    ySocket: MemberConnection,
  ): Promise<void> {
    const before = await stored(x, y);
    for (const [from, to] of [
      [xSocket, y],
      [ySocket, x],
    ] as const) {
      expect(ackError(await sendAck(from, to, 'still there?'))).toMatchObject({
        error: ChatMessages.notMatched,
      });
      expect(ackError(await from.emit('typing', { recipientId: to.userId })).error).toBe(
        ChatMessages.notMatched,
      );
    }
    expect(await stored(x, y)).toBe(before);
  }

  it('refuses messages and typing to and from a suspended member at once; the conversation stays listed; unsuspend restores it', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    await send(annSocket, bob, 'hello Bob');
    // The relay has the pair cached as open.
    expect(await bobSocket.emit('typing', { recipientId: ann.userId })).toEqual({ ok: true });
    await annSocket.next('user_typing', (p) => p.userId === bob.userId);

    expect(await suspend(ann, 1)).toBe('handled');
    await expectRefusedBothWays(ann, annSocket, bob, bobSocket);
    expect(await listed(bob)).toContain(ann.userId);
    const page = await bed.api<{ messages: ChatMessageDto[] }>(
      bob,
      'GET',
      `/api/chat/conversation/${ann.userId}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.messages.map((m) => m.content)).toEqual(['hello Bob']);

    expect(await unsuspend(ann, 2)).toBe('handled');
    expect((await send(bobSocket, ann, 'welcome back')).content).toBe('welcome back');
    expect((await send(annSocket, bob, 'thanks')).content).toBe('thanks');
    expect(await annSocket.emit('typing', { recipientId: bob.userId })).toEqual({ ok: true });
    await bobSocket.next('user_typing', (p) => p.userId === ann.userId);
  });

  it('lists a suspended member without name and picture, as their profile answers 404 to everyone; unsuspend shows them again (issue 24 item 10)', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    await bed.deliver('profile.updated', { ...aProfile(ann.userId, 'Ann', 'https://cdn.example/ann.jpg') }, 2);
    const row = async () =>
      (await bed.api<ConversationSummaryDto[]>(bob, 'GET', '/api/chat/conversations')).body.find((r) => r.userId === ann.userId);
    expect(await row()).toMatchObject({ userName: 'Ann', profilePicture: 'https://cdn.example/ann.jpg' });
    expect(await suspend(ann, 1)).toBe('handled');
    expect(await row()).toMatchObject({ userName: null, profilePicture: null });
    expect(await unsuspend(ann, 2)).toBe('handled');
    expect(await row()).toMatchObject({ userName: 'Ann', profilePicture: 'https://cdn.example/ann.jpg' });
  });

  it("leaves the suspended member's other pairs alone only for members not suspended: a third member's chat goes on", async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const cat = await bed.member('Cat');
    await bed.match(cat, bob);
    const [annSocket, bobSocket, catSocket] = [
      await bed.connect(ann),
      await bed.connect(bob),
      await bed.connect(cat),
    ];
    await suspend(ann, 1);
    await expectRefusedBothWays(ann, annSocket, bob, bobSocket);
    expect((await send(catSocket, bob, 'hi Bob')).content).toBe('hi Bob');
    expect(await bobSocket.emit('typing', { recipientId: cat.userId })).toEqual({ ok: true });
  });

  it('skips a late user.suspended older than the unsuspend already applied', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [annSocket] = [await bed.connect(ann)];
    expect(await unsuspend(ann, 3)).toBe('handled');
    expect(await suspend(ann, 2)).toBe('stale');
    expect((await send(annSocket, bob, 'still here')).content).toBe('still here');
  });
});
