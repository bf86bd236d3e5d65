import { VERIFIED_TOKENS_MAX, VerifiedTokenCache } from '../verified-tokens';

const NOW_MS = 1_800_000_000_000;
const exp = NOW_MS / 1000 + 60;

describe('VerifiedTokenCache', () => {
  it('answers remembered claims until the clock (whole seconds) reaches exp, then forgets them', () => {
    const cache = new VerifiedTokenCache<{ sub: string; exp?: number }>();
    expect(cache.lookup('a', NOW_MS)).toBeUndefined();
    cache.remember('a', { sub: 'user-1', exp });
    expect(cache.lookup('a', NOW_MS)).toEqual({ sub: 'user-1', exp });
    expect(cache.lookup('a', exp * 1000 - 1)).toEqual({ sub: 'user-1', exp });
    expect(cache.lookup('a', exp * 1000)).toBeNull();
    expect(cache.size).toBe(0);
    expect(cache.lookup('a', NOW_MS)).toBeUndefined();
  });

  it('remembers by the exact text only', () => {
    const cache = new VerifiedTokenCache<{ exp?: number }>();
    cache.remember('token', { exp });
    expect(cache.lookup('token ', NOW_MS)).toBeUndefined();
    expect(cache.lookup('Token', NOW_MS)).toBeUndefined();
  });

  it('does not remember tokens without a numeric exp, or with an nbf', () => {
    const cache = new VerifiedTokenCache<{ exp?: number; nbf?: number }>();
    cache.remember('no-exp', {});
    cache.remember('nbf', { exp, nbf: 0 });
    expect(cache.size).toBe(0);
  });

  it('remembers at most its maximum, the oldest going first', () => {
    expect(new VerifiedTokenCache()['max']).toBe(VERIFIED_TOKENS_MAX);
    const cache = new VerifiedTokenCache<{ exp?: number }>(3);
    for (const token of ['1', '2', '3', '4']) cache.remember(token, { exp });
    expect(cache.size).toBe(3);
    expect(cache.lookup('1', NOW_MS)).toBeUndefined();
    expect(cache.lookup('4', NOW_MS)).toEqual({ exp });
  });
});
