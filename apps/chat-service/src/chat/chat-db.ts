import type { PoolClient } from 'pg';
import { driverPool } from '@mate/server-kit';
import type { DataSource } from 'typeorm';

/** A member id as the service compares and stores it (lower case); validated as a UUID before. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The pair as the conversation table stores it (member_a < member_b; uuids compare as their text). */
export const orderedPair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

/** The open-conversation rule in one place: later issues close conversations (unmatch, block). */
export const OPEN = 'closed_at IS NULL';

/** The conversation row a send locks. */
export interface LockedConversation {
  id: string;
  member_a: string;
  member_b: string;
  last_seq: number;
  a_read_seq: number;
  b_read_seq: number;
  closed_at: Date | null;
  sender_name: string | null;
}

/**
 * Runs `work` in a transaction on one connection that first locks the pair's conversation row
 * (FOR UPDATE), so every send to one conversation, from either side, runs one after the other and
 * the next statement's snapshot (READ COMMITTED: one per statement) sees the previous send's
 * commit. BEGIN and the lock are one round trip: a multi-statement simple query, and pg's simple
 * query protocol takes no parameters, so the ids are written into the text. That is the only
 * interpolated SQL of chat, and the guard below (not the callers' validation) keeps it safe: both
 * ids must be lower-case UUID text, or nothing is sent (chat-db.spec.ts). A parameterized lock would
 * cost a second round trip per send, held under the lock's wait. `work` gets the locked row, or
 * null when the pair has no conversation. Rolls back when `work` throws.
 */
export async function inConversationTransaction<T>(
  dataSource: DataSource,
  senderId: string,
  recipientId: string,
  work: (client: PoolClient, conversation: LockedConversation | null) => Promise<T>,
): Promise<T> {
  if (!UUID_TEXT.test(senderId) || !UUID_TEXT.test(recipientId)) throw new Error('member ids must be lower-case UUIDs');
  const [a, b] = orderedPair(senderId, recipientId);
  const client = await driverPool(dataSource).connect();
  let broken: Error | undefined;
  try {
    const results = (await client.query(
      `BEGIN; SELECT c.id, c.member_a, c.member_b, c.last_seq, c.a_read_seq, c.b_read_seq, c.closed_at,
         (SELECT name FROM chat_member WHERE user_id = '${senderId}') AS sender_name
       FROM conversation c WHERE c.member_a = '${a}' AND c.member_b = '${b}' FOR UPDATE OF c`,
    )) as unknown as { rows: LockedConversation[] }[];
    const result = await work(client, results[1].rows[0] ?? null);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
