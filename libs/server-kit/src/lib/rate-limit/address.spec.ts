import { rateLimitAddress } from './address';

describe('rateLimitAddress', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('127.0.0.1')).toBe('127.0.0.1');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(rateLimitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(rateLimitAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(rateLimitAddress('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts any other IPv6 address under its /64, in canonical form', () => {
    expect(rateLimitAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8::/64');
    expect(rateLimitAddress('2001:db8:0:0:1::')).toBe('2001:db8::/64');
    expect(rateLimitAddress('2001:0:0:5::9')).toBe('2001:0:0:5::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80::/64');
    expect(rateLimitAddress('::1')).toBe('::/64');
    expect(rateLimitAddress('64:ff9b::203.0.113.7')).toBe('64:ff9b::/64');
  });

  it('gives two addresses of one /64 the same key and neighbouring /64s different keys', () => {
    expect(rateLimitAddress('2001:db8:1:2::a')).toBe(rateLimitAddress('2001:db8:1:2:ffff::b'));
    expect(rateLimitAddress('2001:db8:1:2::a')).not.toBe(rateLimitAddress('2001:db8:1:3::a'));
  });

  it('returns anything that is not an address unchanged', () => {
    for (const garbage of [
      '',
      'unknown',
      '999.1.1.1',
      '2001:db8::1::2',
      '1.2.3',
      'x'.repeat(300),
      '::ffff:1.2.3.999',
    ]) {
      expect(rateLimitAddress(garbage)).toBe(garbage);
    }
  });
});
