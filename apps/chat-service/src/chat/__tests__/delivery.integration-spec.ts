import {
  ChatMessages,
  type ChatMessageDto,
  type ConversationPageDto,
  type MarkReadResultDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { ackError, startChatTestBed, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

describe('chat delivery through the gateway (real PostgreSQL, Redis, sockets)', () => {
  let bed: ChatTestBed;

  beforeAll(async () => {
    bed = await startChatTestBed('chat_delivery');
  }, 120_000);

  afterAll(async () => {
    await bed?.close();
  });

  it('stores a message, acks it with its seq, pushes new_message to the recipient and message_sent to the sender', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    await bed.match(ann, bob);
    const [annPhone, annLaptop, bobPhone] = [await bed.connect(ann), await bed.connect(ann), await bed.connect(bob)];

    const ack = (await annPhone.emit('send_message', { recipientId: bob.userId, content: 'Hi Bob!', clientId: 'c-1' })) as ChatMessageDto;
    expect(ack).toMatchObject({
      seq: 1,
      senderId: ann.userId,
      recipientId: bob.userId,
      content: 'Hi Bob!',
      isRead: false,
      senderName: 'Ann',
      clientId: 'c-1',
    });
    expect(await bobPhone.next('new_message')).toEqual(ack);
    expect(await annLaptop.next('message_sent')).toEqual(ack);

    const page = await bed.api<ConversationPageDto>(bob, 'GET', `/api/chat/conversation/${ann.userId}`);
    expect(page.status).toBe(200);
    expect(page.body.messages).toEqual([ack]);
  });

  it('refuses a pair without a conversation and stores nothing', async () => {
    const [ann, eve] = [await bed.member('Ann'), await bed.member('Eve')];
    const annSocket = await bed.connect(ann);
    const answer = ackError(await annSocket.emit('send_message', { recipientId: eve.userId, content: 'hello' }));
    expect(answer.error).toBe(ChatMessages.notMatched);
    const rows = await bed.chat.dataSource.query('SELECT count(*)::int AS n FROM message WHERE sender_id = $1', [ann.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('marks read and tells the sender; sync returns what follows a position', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    await bed.match(ann, bob);
    const [annSocket, bobSocket] = [await bed.connect(ann), await bed.connect(bob)];
    for (const content of ['one', 'two', 'three']) {
      await annSocket.emit('send_message', { recipientId: bob.userId, content });
    }
    const sync = (await bobSocket.emit('sync_messages', { conversations: [{ userId: ann.userId, afterSeq: 1 }] })) as SyncMessagesResult;
    expect(sync.messages.map((m) => m.content)).toEqual(['two', 'three']);
    const read = (await bobSocket.emit('mark_as_read', { otherUserId: ann.userId })) as MarkReadResultDto;
    expect(read).toEqual({ readUpTo: 3 });
    expect(await annSocket.next('messages_read')).toEqual({ userId: bob.userId, readUpTo: 3 });
  });
});
