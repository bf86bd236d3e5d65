import type { ConversationSummaryDto } from '@mate/contracts';
import { withReadReplica } from '@mate/server-kit/testing';
import { startPostgresPrimaryAndReplica, type PostgresPrimaryAndReplica } from '@mate/testing';
import { sentMessage, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/**
 * The conversation list read from a streaming replica (DATABASE_READ_URL), both members of a send
 * seeing it at once (docs/adr/0033). The replica lags when its replay is paused.
 */
describe('conversation lists from a read replica, with read-your-writes', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bed: ChatTestBed;

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    bed = await startChatTestBed('chat_replica', { database: withReadReplica(cluster) });
  }, 60_000);

  afterAll(async () => {
    await cluster?.resumeReplay().catch(() => undefined);
    await bed?.close();
    await cluster?.stop();
  });

  const list = async (member: ChatMember) => {
    const res = await bed.api<ConversationSummaryDto[]>(member, 'GET', '/api/chat/conversations');
    expect(res.status).toBe(200);
    return res.body;
  };
  async function send(from: ChatMember, to: ChatMember, content: string) {
    const socket = await bed.connect(from);
    try {
      return sentMessage(await socket.emit('send_message', { recipientId: to.userId, content }));
    } finally {
      socket.socket.disconnect();
    }
  }

  it('with replay paused, a send is in both members’ lists at once; a list nobody wrote to comes from the replica', async () => {
    const [ann, bob, cat, dan] = await Promise.all(['Ann', 'Bob', 'Cat', 'Dan'].map((n) => bed.member(n)));
    await bed.match(ann, bob);
    await cluster.caughtUp();
    await cluster.pauseReplay();

    const sent = await send(ann, bob, 'hello Bob');
    expect((await list(ann)).map((r) => [r.userId, r.lastMessage])).toEqual([[bob.userId, 'hello Bob']]);
    expect((await list(bob)).map((r) => [r.userId, r.lastMessage, r.unreadCount])).toEqual([[ann.userId, 'hello Bob', 1]]);
    expect((await bed.api(bob, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 1 });

    // Read by Bob: his own write, so his list shows it read at once.
    expect((await bed.api(bob, 'POST', `/api/chat/conversation/${ann.userId}/read`)).body).toEqual({ readUpTo: sent.seq });
    expect((await list(bob))[0].unreadCount).toBe(0);

    // Cat and Dan's match arrives (an event, not their write): the replica has not replayed it.
    await bed.match(cat, dan);
    expect(await list(cat)).toEqual([]);
    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect((await list(cat)).map((r) => r.userId)).toEqual([dan.userId]);
  });

  it('lists from the primary when the replica is down, with no error', async () => {
    const [eve, fay] = await Promise.all(['Eve', 'Fay'].map((n) => bed.member(n)));
    await bed.match(eve, fay);
    await cluster.kill('replica');
    expect((await list(fay)).map((r) => r.userId)).toEqual([eve.userId]);
    await send(eve, fay, 'still here');
    expect((await list(fay)).map((r) => r.lastMessage)).toEqual(['still here']);
    expect((await bed.api(fay, 'GET', '/api/chat/unread-count')).body).toEqual({ count: 1 });
  });
});
