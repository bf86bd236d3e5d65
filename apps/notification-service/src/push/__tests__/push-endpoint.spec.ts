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
