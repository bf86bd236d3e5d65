import {
  lookup as dnsLookup,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOneOptions,
} from 'node:dns';
import { Agent, type AgentOptions } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may send a push (issue 12; docs/adr/0017-web-push.md, "SSRF"). A member gives
 * us the endpoint, so it must never make the server call its own network: only https URLs of
 * public hosts on port 443 are taken, and at send time the connection only goes to an address
 * that is public once resolved (a name that resolves to a private address, or re-resolves to one
 * later, is refused: DNS rebinding).
 */

/** What `PUSH_ALLOW_LOOPBACK_ENDPOINTS=on` opens: loopback only, for a test's stand-in push service. */
export interface EndpointPolicy {
  allowLoopback: boolean;
}

export const MAX_ENDPOINT_LENGTH = 2048;

/** Addresses that are not on the public internet (IANA special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: would reach an IPv4 address of any kind
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address stands for (`::ffff:10.0.0.1`), else null. */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const leadingZero = groups.slice(0, 5).every((g) => g === 0);
  if (!leadingZero || (groups[5] !== 0xffff && groups[5] !== 0)) return null;
  if (groups[5] === 0 && groups[6] === 0) return null; // ::, ::1 and the like are IPv6 addresses of their own
  const [hi, lo] = [groups[6] as number, groups[7] as number];
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] as string;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = dotted[1] as string;
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  if (fill < 0) return null;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

/** Whether a push may go to this IP address (a literal or a resolved one). */
export function isAllowedAddress(address: string, policy: EndpointPolicy): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return isAllowedAddress(v4, policy);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const bare = address.split('%')[0] as string;
  if (policy.allowLoopback && LOOPBACK.check(bare, type)) return true;
  return !NON_PUBLIC.check(bare, type);
}

/** Names that always mean this machine or its own network, whatever DNS says. */
function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host.endsWith('.localdomain') ||
    host.endsWith('.home.arpa') ||
    // A single label ("metadata", "redis", "postgres") is a name of the local network.
    !host.includes('.')
  );
}

/**
 * Whether a member may register this endpoint: an https URL of a public host, port 443, no
 * credentials; with the loopback policy also `https://127.0.0.1:<port>/...` and `localhost`.
 * Checked again before every send.
 */
export function isAllowedEndpoint(endpoint: unknown, policy: EndpointPolicy): endpoint is string {
  if (typeof endpoint !== 'string' || endpoint.length === 0 || endpoint.length > MAX_ENDPOINT_LENGTH)
    return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  // WHATWG URL has already turned 0x7f.1, 2130706433 and the like into dotted IPv4.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal)) {
    if (!isAllowedAddress(literal, policy)) return false;
    return (policy.allowLoopback && isLoopbackAddress(literal)) || url.port === '';
  }
  if (policy.allowLoopback && host === 'localhost') return true;
  if (isLocalName(host)) return false;
  // Push services listen on 443; another port is a probe of something else.
  return url.port === '';
}

function isLoopbackAddress(address: string): boolean {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  const a = v4 ?? address;
  return LOOPBACK.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');
}

/** A refused address at connection time (the name resolved to a non-public address). */
export class NonPublicAddressError extends Error {
  readonly code = 'EPUSHADDRESS';
  constructor(host: string) {
    super(`Push endpoint host ${host} resolves to a non-public address`);
    this.name = 'NonPublicAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets that refuses a name when any of its addresses is not public: the
 * address the socket connects to is the one checked here, so a name that resolved to a public
 * address when it was registered and to 10.0.0.1 now (DNS rebinding) gets no connection.
 */
export function publicOnlyLookup(policy: EndpointPolicy) {
  return (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions | number,
    callback: LookupCallback,
  ): void => {
    const opts = typeof options === 'number' ? { family: options } : options;
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => !isAllowedAddress(a.address, policy))) {
        return callback(new NonPublicAddressError(hostname), []);
      }
      if ((opts as LookupAllOptions).all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The https agent every push goes through: public addresses only (see publicOnlyLookup). */
export function pushAgent(policy: EndpointPolicy, tls: AgentOptions = {}): Agent {
  return new Agent({
    ...tls,
    keepAlive: true,
    maxSockets: 32,
    lookup: publicOnlyLookup(policy) as AgentOptions['lookup'],
  });
}
