import fc from 'fast-check';
import { hostileJsonProblem } from './json-body';
import { findNul, nulInQueryProblem, nulInUrlProblem, NulTextMessages } from './nul-text';

/** Issue 24 item 3: a NUL reached PostgreSQL, which refuses it, and was answered 503. */
describe('NUL characters (U+0000)', () => {
  describe('in a JSON body (hostileJsonProblem)', () => {
    it('names the field, at any depth, in values and keys', () => {
      expect(hostileJsonProblem(JSON.parse('{"reason":"spam\\u0000"}'))).toBe(NulTextMessages.bodyField('reason'));
      expect(hostileJsonProblem({ a: [{ b: { c: 'x\u0000' } }] })).toBe(NulTextMessages.bodyField('a[0].b.c'));
      expect(hostileJsonProblem(['ok', '\u0000'])).toBe(NulTextMessages.bodyField('[1]'));
      expect(hostileJsonProblem({ a: { ['k\u0000']: 1 } })).toBe(NulTextMessages.bodyFieldName);
    });

    it('names the first one in document order', () => {
      expect(hostileJsonProblem({ first: '\u0000', second: { third: '\u0000' } })).toBe(NulTextMessages.bodyField('first'));
    });

    it('finds one wherever a generated body hides it, and nothing in a body without one', () => {
      const clean = fc.json({ depthSize: 'small' }).map((t) => JSON.parse(t.replace(/\\u0000/g, '')) as unknown);
      fc.assert(
        fc.property(clean, (v) => {
          const text = JSON.stringify(v);
          if (text.includes('\\u0000') || /"(__proto__|constructor|prototype)"/.test(text)) return;
          expect(hostileJsonProblem(v)).toBeUndefined();
          // The same body with a NUL in its last string (or a new field holding one) is refused.
          const spiked = JSON.parse(`{"value":${text},"note":"\\u0000"}`) as unknown;
          expect(hostileJsonProblem(spiked)).toMatch(/NUL/);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('in a URL (nulInUrlProblem)', () => {
    const query = (q: Record<string, unknown>) => () => q;

    it('refuses %00 or a raw NUL in the path', () => {
      expect(nulInUrlProblem('/api/users/%00', query({}))).toBe(NulTextMessages.path);
      expect(nulInUrlProblem('/api/users/a\u0000', query({}))).toBe(NulTextMessages.path);
    });

    it('names the query parameter, reading the parsed query only when the raw text holds a NUL', () => {
      const parse = jest.fn(() => ({ q: 'a\u0000' }));
      expect(nulInUrlProblem('/api/admin/users/search?q=a%00', parse)).toBe(NulTextMessages.queryParameter('q'));
      const untouched = jest.fn();
      expect(nulInUrlProblem('/api/admin/users/search?q=ann&limit=5', untouched)).toBeUndefined();
      expect(untouched).not.toHaveBeenCalled();
    });

    it('still refuses when the parser lost the parameter (a limit on how many it reads)', () => {
      expect(nulInUrlProblem('/x?a=%00', query({}))).toBe(NulTextMessages.queryString);
    });

    it('takes %2500 for the text "%00", which is not a NUL', () => {
      expect(nulInUrlProblem('/x/%2500?q=%2500', query({ q: '%00' }))).toBeUndefined();
    });
  });

  it('nulInQueryProblem: repeated and nested parameters are named by their parameter', () => {
    expect(nulInQueryProblem({ q: ['a', 'b\u0000'] })).toBe(NulTextMessages.queryParameter('q'));
    expect(nulInQueryProblem({ filter: { name: '\u0000' } })).toBe(NulTextMessages.queryParameter('filter.name'));
    expect(nulInQueryProblem({ ['q\u0000']: 'a' })).toBe(NulTextMessages.queryParameterName);
    expect(nulInQueryProblem({ q: 'ann', limit: '5' })).toBeUndefined();
  });

  it('findNul: a path for values, inKey for keys, and no overflow on deep values', () => {
    expect(findNul('\u0000')).toEqual({ path: '' });
    expect(findNul({ a: ['x', { b: '\u0000' }] })).toEqual({ path: 'a[1].b' });
    expect(findNul({ a: { ['\u0000']: 1 } })).toEqual({ path: 'a.\u0000', inKey: true });
    expect(findNul({ n: 1, b: true, z: null })).toBeUndefined();
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => findNul(deep)).not.toThrow();
  });
});
