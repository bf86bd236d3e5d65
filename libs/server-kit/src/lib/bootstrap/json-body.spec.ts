import fc from 'fast-check';
import { hostileJsonProblem, jsonDepthExceeds, JsonBodyMessages, MAX_JSON_DEPTH } from './json-body';

/** The nesting depth of a parsed value, the way the scanner should count it on the text. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonDepthExceeds', () => {
  it('agrees with the parsed depth of any JSON value (strings full of brackets, quotes and escapes included)', () => {
    const hostileString = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'é', '\u2028') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        hostileString,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(hostileString, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (v, max) => {
        expect(jsonDepthExceeds(bytes(JSON.stringify(v)), max)).toBe(depthOf(v) > max);
      }),
      { numRuns: 300 },
    );
  });

  it('stops a 3,500-level body', () => {
    expect(jsonDepthExceeds(bytes('['.repeat(3500) + ']'.repeat(3500)), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('hostileJsonProblem', () => {
  it('names prototype keys as unknown fields, with their path', () => {
    expect(hostileJsonProblem(JSON.parse('{"__proto__":{}}'))).toBe('Unknown field: __proto__');
    expect(hostileJsonProblem({ a: [{ b: { constructor: 1 } }] })).toBe('Unknown field: a[0].b.constructor');
    expect(hostileJsonProblem({ prototype: 'x' })).toBe('Unknown field: prototype');
  });

  it('refuses lone surrogates in values and keys, and accepts pairs', () => {
    expect(hostileJsonProblem({ email: '\ud800@x.co' })).toBe(JsonBodyMessages.invalidText);
    expect(hostileJsonProblem({ ['\udc00']: 1 })).toBe(JsonBodyMessages.invalidText);
    expect(hostileJsonProblem(['ok', 'a\udbffb'])).toBe(JsonBodyMessages.invalidText);
    expect(hostileJsonProblem({ text: 'smile \ud83d\ude00', constructorName: 'fine' })).toBeUndefined();
  });

  it('finds nothing wrong in ordinary JSON without those keys or lone surrogates', () => {
    const ordinaryKey = fc.string().filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
    fc.assert(
      fc.property(fc.json({ depthSize: 'small' }).map((t) => JSON.parse(t) as unknown), (v) => {
        const cleaned = JSON.parse(JSON.stringify(v, (k, x: unknown) => (['__proto__', 'constructor', 'prototype'].includes(k) ? undefined : x)));
        expect(hostileJsonProblem(cleaned)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
    fc.assert(fc.property(ordinaryKey, (k) => expect(hostileJsonProblem({ [k]: 1 })).toBeUndefined()), { numRuns: 200 });
  });

  it('names a value nested deeper than MAX_JSON_DEPTH, and never overflows the stack (100,000 levels)', () => {
    const nested = (levels: number, leaf: unknown = 1): unknown => {
      let value: unknown = leaf;
      for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
      return value;
    };
    expect(() => hostileJsonProblem(nested(100_000))).not.toThrow();
    expect(hostileJsonProblem(nested(100_000))).toBe(JsonBodyMessages.tooDeep);
    // The same deep value as body-parser produces it, from a text the byte scan could not read.
    expect(hostileJsonProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBe(JsonBodyMessages.tooDeep);
    expect(hostileJsonProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(hostileJsonProblem(nested(MAX_JSON_DEPTH + 1))).toBe(JsonBodyMessages.tooDeep);
    // Scalars below the last level are not levels; a bad one there is still found.
    expect(hostileJsonProblem(nested(MAX_JSON_DEPTH, '\ud800'))).toBe(JsonBodyMessages.invalidText);
  });

  it('refuses every value deeper than MAX_JSON_DEPTH and calls no other too deep; names the first problem in document order', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'small' }), fc.integer({ min: 0, max: MAX_JSON_DEPTH + 4 }), (text, levels) => {
        let value: unknown = JSON.parse(text);
        for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
        const problem = hostileJsonProblem(value);
        // Never accepted when too deep (a problem met first may be named instead), never called too deep when not.
        if (depthOf(value) > MAX_JSON_DEPTH) expect(problem).toBeDefined();
        else expect(problem).not.toBe(JsonBodyMessages.tooDeep);
        if (levels > MAX_JSON_DEPTH) expect(problem).toBe(JsonBodyMessages.tooDeep);
      }),
      { numRuns: 300 },
    );
    expect(hostileJsonProblem({ a: { constructor: 1 }, b: '\udc00' })).toBe('Unknown field: a.constructor');
    expect(hostileJsonProblem({ b: '\udc00', a: { constructor: 1 } })).toBe(JsonBodyMessages.invalidText);
  });
});
