import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-address rate limit counts a client under. An IPv4 address is one client; an
 * IPv6 client is usually given a whole /64 (and picks a new address in it at will, RFC 8981),
 * so counting single IPv6 addresses would let one client spend a fresh budget per request.
 * IPv4-mapped IPv6 (`::ffff:203.0.113.7`, how a dual-stack socket reports an IPv4 peer) is the
 * IPv4 address it carries. Anything that is not an address is returned unchanged: it still
 * counts as one key and the caller's own validation decides what it means.
 */
export function rateLimitAddress(ip: string): string {
  if (isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${canonicalIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** The eight 16-bit groups of an IPv6 address (zone index dropped), or undefined if it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return undefined;
  let text = address.toLowerCase();
  const embedded = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (embedded) {
    const [a, b, c, d] = embedded.slice(1).map(Number);
    text = `${text.slice(0, embedded.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const front = parse(head);
  const back = parse(tail);
  const groups =
    tail === undefined ? front : [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 ? groups : undefined;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (two or more) of zero groups as `::`. */
function canonicalIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < groups.length && groups[end] === 0) end++;
    if (end - i > bestLength) {
      bestStart = i;
      bestLength = end - i;
    }
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
