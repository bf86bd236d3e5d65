import type { ConversationPageDto, ConversationSummaryDto } from '@mate/contracts';
import { isTransactionPooled } from '@mate/server-kit';
import { testServerPort, throughPgBouncer } from '@mate/server-kit/testing';
import { startPgBouncer, type OwnPgBouncer } from '@mate/testing';
import { sentMessage, startChatTestBed, type ChatMember, type ChatTestBed } from '../../__tests__/chat-test-bed';

jest.setTimeout(60_000);

/** Server connections PgBouncer keeps per database: fewer than the service's pool (10) and the senders below. */
const SERVER_CONNECTIONS = 2;

describe('chat through PgBouncer in transaction pooling (DATABASE_POOLING=transaction)', () => {
  let bouncer: OwnPgBouncer;
  let bed: ChatTestBed;

  beforeAll(async () => {
    bouncer = await startPgBouncer({
      upstreamPort: await testServerPort(),
      databases: '*',
      poolMode: 'transaction',
      poolSize: SERVER_CONNECTIONS,
    });
    bed = await startChatTestBed('chat_pooled', { database: throughPgBouncer(bouncer) });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
    await bouncer?.stop();
  });

  const list = async (member: ChatMember) => {
    const res = await bed.api<ConversationSummaryDto[]>(member, 'GET', '/api/chat/conversations');
    expect(res.status).toBe(200);
    return res.body;
  };

  it('sends of several pairs at once, then their lists and pages, all served', async () => {
    expect(isTransactionPooled(bed.chat.dataSource)).toBe(true);
    const members = await Promise.all(Array.from({ length: 6 }, (_, i) => bed.member(`Member ${i}`)));
    const pairs = [0, 2, 4].map((i) => [members[i], members[i + 1]] as const);
    for (const [a, b] of pairs) await bed.match(a, b);
    const sockets = await Promise.all(members.map((m) => bed.connect(m)));
    const socketOf = (m: ChatMember) => sockets[members.indexOf(m)];

    const MESSAGES = 4;
    const acks = await Promise.all(
      pairs.flatMap(([a, b]) =>
        Array.from({ length: MESSAGES }, (_, n) => {
          const [from, to] = n % 2 === 0 ? [a, b] : [b, a];
          return socketOf(from).emit('send_message', { recipientId: to.userId, content: `message ${n}` });
        }),
      ),
    );
    const sent = acks.map(sentMessage);
    expect(sent).toHaveLength(pairs.length * MESSAGES);

    const lists = await Promise.all(members.map(list));
    lists.forEach((rows, i) => {
      const other = members[i ^ 1];
      expect(rows.map((r) => [r.userId, r.lastSeq])).toEqual([[other.userId, MESSAGES]]);
    });
    const pages = await Promise.all(
      pairs.map(([a, b]) => bed.api<ConversationPageDto>(a, 'GET', `/api/chat/conversation/${b.userId}`)),
    );
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    }
    for (const socket of sockets) socket.socket.disconnect();
  });
});
