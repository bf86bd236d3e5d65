import {
  isAllowedAddress,
  isAllowedEndpoint,
  NonPublicAddressError,
  publicOnlyLookup,
} from '../push-endpoint';

const strict = { allowLoopback: false };
const loopbackAllowed = { allowLoopback: true };

describe('push endpoints: only https URLs of public push services (SSRF)', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://web.push.apple.com/QGx2',
    'https://wns2-par02p.notify.windows.com/w/?token=x',
    'https://8.8.8.8/push',
    'https://[2606:4700::1111]/push',
  ])('takes %s', (endpoint) => {
    expect(isAllowedEndpoint(endpoint, strict)).toBe(true);
  });

  it.each([
    ['http (not https)', 'http://fcm.googleapis.com/fcm/send/x'],
    ['another scheme', 'ftp://fcm.googleapis.com/x'],
    ['no URL', 'not a url'],
    ['credentials in the URL', 'https://user:pass@fcm.googleapis.com/x'],
    ['another port', 'https://fcm.googleapis.com:8443/x'],
    ['localhost', 'https://localhost/x'],
    ['a .localhost name', 'https://api.localhost/x'],
    ['a single-label name', 'https://redis/x'],
    ['an .internal name', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['a .local name', 'https://printer.local/x'],
    ['loopback', 'https://127.0.0.1/x'],
    ['loopback, other form', 'https://127.1.2.3/x'],
    ['loopback as a number', 'https://2130706433/x'],
    ['loopback in hex', 'https://0x7f.0.0.1/x'],
    ['0.0.0.0', 'https://0.0.0.0/x'],
    ['10/8', 'https://10.1.2.3/x'],
    ['172.16/12', 'https://172.16.0.1/x'],
    ['172.31 (end of 172.16/12)', 'https://172.31.255.254/x'],
    ['192.168/16', 'https://192.168.1.1/x'],
    ['link-local', 'https://169.254.10.10/x'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/x'],
    ['CGNAT end', 'https://100.127.255.254/x'],
    ['multicast', 'https://224.0.0.1/x'],
    ['broadcast', 'https://255.255.255.255/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['IPv6 unspecified', 'https://[::]/x'],
    ['IPv6 unique local', 'https://[fc00::1]/x'],
    ['IPv6 unique local fd', 'https://[fd12:3456::1]/x'],
    ['IPv6 link-local', 'https://[fe80::1]/x'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/x'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/x'],
    ['IPv4-mapped metadata', 'https://[::ffff:a9fe:a9fe]/x'],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:1]/x'],
    ['6to4', 'https://[2002:a00:1::1]/x'],
    ['too long', `https://fcm.googleapis.com/${'a'.repeat(2100)}`],
  ])('refuses %s', (_what, endpoint) => {
    expect(isAllowedEndpoint(endpoint, strict)).toBe(false);
  });

  it('refuses what is not text', () => {
    for (const value of [undefined, null, 42, {}, ['https://fcm.googleapis.com/x']]) {
      expect(isAllowedEndpoint(value, strict)).toBe(false);
    }
  });

  it('with loopback allowed (tests), takes loopback on any port, and nothing else private', () => {
    expect(isAllowedEndpoint('https://127.0.0.1:4443/push/1', loopbackAllowed)).toBe(true);
    expect(isAllowedEndpoint('https://[::1]:4443/push/1', loopbackAllowed)).toBe(true);
    expect(isAllowedEndpoint('https://localhost:4443/push/1', loopbackAllowed)).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:4443/push/1', loopbackAllowed)).toBe(false);
    expect(isAllowedEndpoint('https://10.0.0.1/x', loopbackAllowed)).toBe(false);
    expect(isAllowedEndpoint('https://169.254.169.254/x', loopbackAllowed)).toBe(false);
    expect(isAllowedEndpoint('https://192.168.0.1:4443/x', loopbackAllowed)).toBe(false);
    expect(isAllowedEndpoint('https://fcm.googleapis.com:8443/x', loopbackAllowed)).toBe(false);
  });

  it('classifies addresses', () => {
    expect(isAllowedAddress('93.184.216.34', strict)).toBe(true);
    expect(isAllowedAddress('2a00:1450:4001:80b::200a', strict)).toBe(true);
    expect(isAllowedAddress('::ffff:93.184.216.34', strict)).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.255.255.255',
      '172.20.1.1',
      '192.168.255.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1%eth0',
      'fdff::1',
      '::ffff:192.168.0.1',
      'not-an-ip',
    ]) {
      expect([a, isAllowedAddress(a, strict)]).toEqual([a, false]);
    }
    expect(isAllowedAddress('172.15.255.255', strict)).toBe(true);
    expect(isAllowedAddress('172.32.0.0', strict)).toBe(true);
    expect(isAllowedAddress('100.63.255.255', strict)).toBe(true);
    expect(isAllowedAddress('100.128.0.0', strict)).toBe(true);
  });
});

describe('the connection-time lookup (DNS rebinding)', () => {
  const resolve = (host: string, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      publicOnlyLookup(strict)(host, { all } as never, (err, address) => done({ err, address })),
    );

  it('refuses a name that resolves to a loopback address', async () => {
    for (const all of [true, false]) {
      const { err } = await resolve('localhost', all);
      expect(err).toBeInstanceOf(NonPublicAddressError);
    }
  });

  it('lets loopback names through when loopback endpoints are allowed (tests)', async () => {
    const result = await new Promise<{ err: unknown; address: unknown }>((done) =>
      publicOnlyLookup(loopbackAllowed)('localhost', { all: false } as never, (err, address) =>
        done({ err, address }),
      ),
    );
    expect(result.err).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(result.address);
  });
});

/**
 * Issue 24 item 5: `https://[::ffff:0:7f00:1]/` (IPv4-translated) reached 127.0.0.1. Every
 * non-public IPv4 address is tried in every spelling a URL or a socket can give it: IPv4 in its
 * number forms, and each IPv6 range that carries an IPv4 address.
 */
describe('every spelling of a non-public IPv4 address is refused (issue 24 item 5)', () => {
  const NON_PUBLIC_IPV4 = [
    ['this network', '0.0.0.0'],
    ['this network, other', '0.1.2.3'],
    ['private 10/8', '10.0.0.1'],
    ['CGNAT', '100.64.0.1'],
    ['loopback', '127.0.0.1'],
    ['loopback, end of 127/8', '127.255.255.254'],
    ['link-local, cloud metadata', '169.254.169.254'],
    ['private 172.16/12', '172.16.0.1'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['documentation', '192.0.2.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['benchmarking', '198.18.0.1'],
    ['multicast', '224.0.0.1'],
    ['reserved', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
  ] as const;

  const octets = (v4: string) => v4.split('.').map(Number) as [number, number, number, number];
  const hex16 = (v4: string): [string, string] => {
    const [a, b, c, d] = octets(v4);
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  /** The ways a URL can name an IPv4 address (the WHATWG parser turns them all into dotted form). */
  const ipv4Spellings = (v4: string): [string, string][] => {
    const [a, b, c, d] = octets(v4);
    const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
    return [
      ['dotted', v4],
      ['decimal', String(n)],
      ['hex', `0x${n.toString(16)}`],
      ['octal octets', [a, b, c, d].map((o) => `0${o.toString(8)}`).join('.')],
      ['hex octets', [a, b, c, d].map((o) => `0x${o.toString(16)}`).join('.')],
      ['two parts', `${a}.${(b << 16) + (c << 8) + d}`],
      ['trailing dot', `${v4}.`],
    ];
  };
  /** Each IPv6 range that embeds an IPv4 address, with the address in it. */
  const ipv6Embeddings = (v4: string): [string, string][] => {
    const [hi, lo] = hex16(v4);
    const [a, b, c, d] = octets(v4);
    // Teredo: 2001:0:<server v4>:<flags>:<port ^ ffff>:<client v4 ^ ffffffff>
    const teredoClient = [((a << 8) | b) ^ 0xffff, ((c << 8) | d) ^ 0xffff].map((g) => g.toString(16));
    return [
      ['IPv4-mapped, dotted', `::ffff:${v4}`],
      ['IPv4-mapped, hex', `::ffff:${hi}:${lo}`],
      ['IPv4-mapped, written out', `0:0:0:0:0:ffff:${hi}:${lo}`],
      ['IPv4-mapped, upper case', `::FFFF:${hi.toUpperCase()}:${lo.toUpperCase()}`],
      ['IPv4-translated, hex', `::ffff:0:${hi}:${lo}`],
      ['IPv4-translated, dotted', `::ffff:0:${v4}`],
      ['IPv4-compatible, dotted', `::${v4}`],
      ['IPv4-compatible, hex', `::${hi}:${lo}`],
      ['NAT64, dotted', `64:ff9b::${v4}`],
      ['NAT64, hex', `64:ff9b::${hi}:${lo}`],
      ['local NAT64', `64:ff9b:1::${hi}:${lo}`],
      ['6to4', `2002:${hi}:${lo}::1`],
      ['Teredo, as server', `2001:0:${hi}:${lo}::1`],
      ['Teredo, as client', `2001:0:4136:e378:8000:63bf:${teredoClient.join(':')}`],
      ['ISATAP', `2a00:1450:4001:80b:0:5efe:${v4}`],
      ['ISATAP, global bit', `2a00:1450:4001:80b:200:5efe:${hi}:${lo}`],
    ];
  };

  const endpoints: [string, string][] = NON_PUBLIC_IPV4.flatMap(([range, v4]) => [
    ...ipv4Spellings(v4).flatMap(([form, host]): [string, string][] => [
      [`${range} ${v4}, ${form}`, `https://${host}/push`],
      [`${range} ${v4}, ${form}, port 443`, `https://${host}:443/push`],
    ]),
    ...ipv6Embeddings(v4).flatMap(([form, host]): [string, string][] => [
      [`${range} ${v4}, ${form}`, `https://[${host}]/push`],
      [`${range} ${v4}, ${form}, port 443`, `https://[${host}]:443/push`],
    ]),
  ]);

  it.each(endpoints)('refuses %s as an endpoint: %s', (_what, endpoint) => {
    expect(isAllowedEndpoint(endpoint, strict)).toBe(false);
  });

  it.each(
    NON_PUBLIC_IPV4.flatMap(([range, v4]) =>
      ipv6Embeddings(v4).map(([form, address]): [string, string] => [`${range}, ${form}`, address]),
    ),
  )('refuses %s as an address connected to: %s', (_what, address) => {
    expect(isAllowedAddress(address, strict)).toBe(false);
  });

  it('the reported form, `https://[::ffff:0:7f00:1]/`, is refused with and without loopback allowed', () => {
    expect(isAllowedEndpoint('https://[::ffff:0:7f00:1]/', strict)).toBe(false);
    expect(isAllowedEndpoint('https://[::ffff:0:7f00:1]/', loopbackAllowed)).toBe(false);
    expect(isAllowedAddress('::ffff:0:7f00:1', strict)).toBe(false);
  });

  it('loopback allowed (tests) opens loopback written as IPv4 or IPv4-mapped, and no other embedding', () => {
    expect(isAllowedAddress('::ffff:127.0.0.1', loopbackAllowed)).toBe(true);
    for (const [form, address] of ipv6Embeddings('127.0.0.1').filter(([f]) => !f.startsWith('IPv4-mapped'))) {
      expect([form, isAllowedAddress(address, loopbackAllowed)]).toEqual([form, false]);
    }
  });

  it('a public IPv4 address is taken where the embedding reaches it, and refused where it is a tunnel or deprecated', () => {
    const taken = ['IPv4-mapped', 'IPv4-translated', 'NAT64, ', 'ISATAP'];
    for (const [form, address] of ipv6Embeddings('8.8.8.8')) {
      const expected = taken.some((t) => form.startsWith(t));
      expect([form, isAllowedAddress(address, strict)]).toEqual([form, expected]);
      expect([form, isAllowedEndpoint(`https://[${address}]/push`, strict)]).toEqual([form, expected]);
    }
  });
});
