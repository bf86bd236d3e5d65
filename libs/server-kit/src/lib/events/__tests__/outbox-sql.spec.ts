import { completedFactBody, insertOutboxFacts } from '../outbox-sql';

describe('outbox statements a producer embeds', () => {
  it("completes a fact's payload with the statement's fields, each named once", () => {
    expect(
      completedFactBody<'like.created', 'matched'>('$8::jsonb', { matched: 'inserted.liked_back' }),
    ).toBe(
      `jsonb_set($8::jsonb, '{payload}', ($8::jsonb)->'payload' || jsonb_build_object('matched', inserted.liked_back))`,
    );
    expect(
      completedFactBody<'message.sent', 'seq' | 'first'>('t.event', { seq: 'i.seq', first: 'i.seq = 1' }),
    ).toBe(
      `jsonb_set(t.event, '{payload}', (t.event)->'payload' || jsonb_build_object('seq', i.seq, 'first', i.seq = 1))`,
    );
  });

  it('takes only a parameter or a column as the envelope, and only a relation name as the facts', () => {
    expect(() => completedFactBody<'like.created', 'matched'>("'{}'::jsonb", { matched: 'true' })).toThrow(
      /parameter/,
    );
    expect(() => insertOutboxFacts('facts; DROP TABLE outbox')).toThrow(/relation/);
  });
});
