import type { DataSource } from 'typeorm';
import { inConversationTransaction } from './chat-db';

const ANN = '0b7c2d9e-1f3a-4c5b-8d6e-7f8091a2b3c4';
const BOB = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

/** A data source whose pool records what reaches the database. */
function fakeDataSource() {
  const queries: string[] = [];
  const client = {
    query: jest.fn(async (text: string) => {
      queries.push(text);
      return text.startsWith('BEGIN') ? [{ rows: [] }, { rows: [] }] : { rows: [] };
    }),
    release: jest.fn(),
  };
  const pool = { connect: jest.fn(async () => client) };
  return { dataSource: { driver: { master: pool } } as unknown as DataSource, pool, queries };
}

/**
 * The one statement of chat that has ids written into its text (BEGIN and the row lock in one
 * simple-query round trip, which takes no parameters): the guard in inConversationTransaction
 * itself, not its callers, keeps anything but lower-case UUID text out of it.
 */
describe('inConversationTransaction guard', () => {
  it.each([
    ["a quote", `${BOB}' OR '1'='1`],
    ['a statement', `${BOB}'; DROP TABLE message; --`],
    ['a trailing newline', `${BOB}\n`],
    ['a NUL', `${BOB}\u0000`],
    ['upper case', BOB.toUpperCase()],
    ['braces', `{${BOB}}`],
    ['no hyphens', BOB.replace(/-/g, '')],
    ['empty', ''],
  ])('refuses %s before any connection is taken', async (_what, id) => {
    for (const [sender, recipient] of [
      [ANN, id],
      [id, ANN],
    ]) {
      const { dataSource, pool } = fakeDataSource();
      const work = jest.fn();
      await expect(inConversationTransaction(dataSource, sender, recipient, work)).rejects.toThrow('member ids must be lower-case UUIDs');
      expect(pool.connect).not.toHaveBeenCalled();
      expect(work).not.toHaveBeenCalled();
    }
  });

  it('locks the ordered pair for two lower-case UUIDs and commits', async () => {
    const { dataSource, queries } = fakeDataSource();
    const result = await inConversationTransaction(dataSource, BOB, ANN, async (_client, conversation) => conversation);
    expect(result).toBeNull();
    expect(queries[0]).toContain(`c.member_a = '${ANN}' AND c.member_b = '${BOB}' FOR UPDATE OF c`);
    expect(queries[0]).toContain(`WHERE user_id = '${BOB}'`);
    expect(queries[1]).toBe('COMMIT');
  });
});
