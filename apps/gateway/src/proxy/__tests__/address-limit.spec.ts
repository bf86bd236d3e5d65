import { AddressLimit } from '../address-limit';

describe('AddressLimit', () => {
  const limit = () => new AddressLimit('mate:rl:gateway', 3, 60);

  it('names the counter as rate-limiter-flexible did', () => {
    expect(limit().counter('203.0.113.7')).toEqual({ key: 'mate:rl:gateway:203.0.113.7', windowSeconds: 60 });
  });

  it('refuses counts over the limit, and the address from memory from the count that reaches it until the window ends', () => {
    const l = limit();
    const now = 1_000_000;
    expect(l.refusalMs('a', { consumed: 2, msBeforeNext: 40_000 }, now)).toBe(0);
    expect(l.blockedMs('a', now)).toBe(0);
    expect(l.refusalMs('a', { consumed: 3, msBeforeNext: 30_000 }, now)).toBe(0);
    expect(l.blockedMs('a', now + 10_000)).toBe(20_000);
    expect(l.blockedMs('b', now)).toBe(0);
    expect(l.refusalMs('a', { consumed: 4, msBeforeNext: 5_000 }, now)).toBe(5_000);
    expect(l.blockedMs('a', now + 5_000)).toBe(0);
    expect(l.blockedMs('a', now + 1)).toBe(0);
  });

  it('sweeps windows that ended once many addresses were blocked', () => {
    const l = limit();
    for (let i = 0; i < 1000; i++) l.refusalMs(`old-${i}`, { consumed: 3, msBeforeNext: 1_000 }, 0);
    l.refusalMs('new', { consumed: 3, msBeforeNext: 60_000 }, 5_000);
    expect((l as unknown as { blockedUntil: Map<string, number> }).blockedUntil.size).toBe(1);
    expect(l.blockedMs('new', 5_000)).toBe(60_000);
  });
});
