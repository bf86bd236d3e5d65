import {
  lookup as dnsLookup,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOneOptions,
} from 'node:dns';
import { Agent, type AgentOptions, type RequestOptions } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

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

/** IPv4 addresses that are not on the public internet (IANA special-purpose registry). */
const NON_PUBLIC_IPV4 = new BlockList();
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
  NON_PUBLIC_IPV4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6 addresses that are not on the public internet, and the IPv6 ranges that carry an IPv4
 * address we refuse whatever that address is: a tunnel or a deprecated form no push service
 * uses, and where the IPv4 address sits is not fixed (local NAT64) or is obfuscated (Teredo).
 */
const NON_PUBLIC_IPV6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated, RFC 4291 2.5.5.1)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): its prefix length is the operator's choice
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo 2001::/32 among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // segment routing SIDs (RFC 9602)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC_IPV6.addSubnet(net, prefix, 'ipv6');
}

const LOOPBACK_IPV4 = new BlockList();
LOOPBACK_IPV4.addSubnet('127.0.0.0', 8, 'ipv4');

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail and zone allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] as string;
  if (isIP(text) !== 6) return null;
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
  const groups = [...h, ...Array<string>(Math.max(fill, 0)).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

const dottedOf = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
const zeros = (groups: number[]) => groups.every((g) => g === 0);

/** `::ffff:a.b.c.d` (RFC 4291): the form a dual-stack socket gives an IPv4 peer; it is that peer. */
function mappedIpv4(g: number[]): string | null {
  return zeros(g.slice(0, 5)) && g[5] === 0xffff ? dottedOf(g[6] as number, g[7] as number) : null;
}

/**
 * The IPv4 address an IPv6 address reaches through a translator or names as its interface:
 * IPv4-translated `::ffff:0:a.b.c.d` (RFC 2765/6145), NAT64's well-known prefix
 * `64:ff9b::a.b.c.d` (RFC 6052; what DNS64 answers for an IPv4-only push service on an
 * IPv6-only network) and an ISATAP interface `…:0:5efe:a.b.c.d` / `…:200:5efe:a.b.c.d`
 * (RFC 5214, any prefix); else null.
 */
function translatedIpv4(g: number[]): string | null {
  const [hi, lo] = [g[6] as number, g[7] as number];
  const translated = zeros(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6));
  const isatap = ((g[4] as number) & 0xfcff) === 0 && g[5] === 0x5efe;
  return translated || nat64 || isatap ? dottedOf(hi, lo) : null;
}

/**
 * Whether a push may go to this IP address (a literal of an endpoint, or the address a socket
 * resolved to or connected to). Every IPv6 range that embeds an IPv4 address is either refused
 * outright (NON_PUBLIC_IPV6) or judged by the IPv4 address inside it (issue 24 item 5:
 * `::ffff:0:7f00:1` reached 127.0.0.1).
 */
export function isAllowedAddress(address: string, policy: EndpointPolicy): boolean {
  const family = isIP(address);
  if (family === 4) {
    if (policy.allowLoopback && LOOPBACK_IPV4.check(address, 'ipv4')) return true;
    return !NON_PUBLIC_IPV4.check(address, 'ipv4');
  }
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const mapped = mappedIpv4(groups);
  if (mapped !== null) return isAllowedAddress(mapped, policy);
  const bare = groups.map((g) => g.toString(16)).join(':');
  if (policy.allowLoopback && bare === '0:0:0:0:0:0:0:1') return true;
  if (NON_PUBLIC_IPV6.check(bare, 'ipv6')) return false;
  const inner = translatedIpv4(groups);
  return inner === null || !NON_PUBLIC_IPV4.check(inner, 'ipv4');
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

/** 127.0.0.0/8, `::1`, or 127.0.0.0/8 written IPv4-mapped: what the loopback policy opens. */
function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return LOOPBACK_IPV4.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const mapped = mappedIpv4(groups);
  if (mapped !== null) return LOOPBACK_IPV4.check(mapped, 'ipv4');
  return zeros(groups.slice(0, 7)) && groups[7] === 1;
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

/** Resolves a name to all its addresses: `dns.lookup` with `all: true` (a test passes its own). */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for sockets that refuses a name when any of its addresses is not public: the
 * address the socket connects to is the one checked here, so a name that resolved to a public
 * address when it was registered and to 10.0.0.1 now (DNS rebinding) gets no connection.
 */
export function publicOnlyLookup(policy: EndpointPolicy, resolve: ResolveAll = systemResolver) {
  return (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions | number,
    callback: LookupCallback,
  ): void => {
    const opts = typeof options === 'number' ? { family: options } : options;
    resolve(hostname, { ...opts, all: true }, (err, list) => {
      if (err) return callback(err, []);
      if (list.length === 0 || list.some((a) => !isAllowedAddress(a.address, policy))) {
        return callback(new NonPublicAddressError(hostname), []);
      }
      if ((opts as LookupAllOptions).all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The https agent every push goes through. A name is resolved by publicOnlyLookup; an IP literal
 * (sockets skip `lookup` for one) is checked before any connection is made; and the address each
 * socket did connect to is checked again on connect, before TLS can carry a request, so no path
 * around the URL check or the lookup (a stored row, a resolver that answers differently) reaches
 * a non-public address.
 */
class PublicOnlyAgent extends Agent {
  constructor(
    private readonly policy: EndpointPolicy,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(
    options: RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = String(options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
    if (isIP(host) && !isAllowedAddress(host, this.policy)) {
      process.nextTick(() => callback?.(new NonPublicAddressError(host), undefined as never));
      return undefined;
    }
    const socket = super.createConnection(options, callback) as TLSSocket;
    socket.once('connect', () => {
      const remote = socket.remoteAddress;
      if (!remote || !isAllowedAddress(remote, this.policy)) socket.destroy(new NonPublicAddressError(host));
    });
    return socket;
  }
}

/** The https agent every push goes through: public addresses only (see PublicOnlyAgent). */
export function pushAgent(policy: EndpointPolicy, tls: AgentOptions = {}, resolve?: ResolveAll): Agent {
  return new PublicOnlyAgent(policy, {
    ...tls,
    keepAlive: true,
    maxSockets: 32,
    lookup: publicOnlyLookup(policy, resolve) as AgentOptions['lookup'],
  });
}
