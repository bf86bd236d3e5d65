import { withLiterals } from '../pair-transaction';

describe('withLiterals (a pair statement sent whole through a transaction pooler)', () => {
  it('puts each value as a literal in place of its parameter, $10 not read as $1', () => {
    const values = ['a', 2, true, null, new Date('2026-01-02T03:04:05.000Z'), { k: "it's" }, 7, 8, 9, 'ten'];
    const text = 'SELECT $1::uuid, $2::int, $3, $4, $5::timestamptz, $6::jsonb, $10::text';
    expect(withLiterals({ name: 's', text, values })).toBe(
      `SELECT 'a'::uuid, 2::int, true, NULL, '2026-01-02T03:04:05.000Z'::timestamptz, '{"k":"it''s"}'::jsonb, 'ten'::text`,
    );
  });

  it('leaves quoted text and comments alone', () => {
    const text = "SELECT '$1 and ''$2''' AS t, $1 -- the member's $2\n/* $2 */ , $2";
    expect(withLiterals({ name: 's', text, values: ['x', 'y'] })).toBe(
      "SELECT '$1 and ''$2''' AS t, 'x' -- the member's $2\n/* $2 */ , 'y'",
    );
  });

  it('refuses a parameter it has no value for', () => {
    expect(() => withLiterals({ name: 's', text: 'SELECT $2', values: ['x'] })).toThrow('s: no value for $2');
  });
});
