// The security headers the web server puts on everything it serves itself (ADR 0011): a strict
// Content-Security-Policy, Permissions-Policy, nosniff, Referrer-Policy, X-Frame-Options DENY, and
// HSTS when the request came over HTTPS. Plain functions on Node's own modules, used by server.mjs.
//
// - The API origin in the CSP is the one the app was built to call: the build writes it to
//   `.web-config.json` (a dotfile, so never served) from VITE_API_URL; without one the app calls
//   its own origin, or port 3000 of the same host on localhost (apps/web/src/app/api-base.ts),
//   and the CSP says the same. API_ORIGIN overrides the build's value; PHOTO_ORIGINS adds image
//   origins (a CDN in front of the photos).
// - Inline scripts: none, but those of index.html the build lists in `.web-config.json` by their
//   sha256 (`scriptHashes`: the member app's prerender, issue 26).
// - HTTPS is what this hop knows: TLS on the socket, or X-Forwarded-Proto: https from a hop that
//   TRUST_PROXY names ("false" by default; "true", a hop count, or a comma list of addresses,
//   CIDRs and the names loopback, linklocal, uniquelocal).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Written by the web build next to index.html (apps/web/vite.config.mts); never served (a dotfile). */
export const WEB_CONFIG_FILE = '.web-config.json';
/**
 * The gateway's port on localhost, where an app built without VITE_API_URL calls it: the same
 * number as LOCAL_GATEWAY_PORT in apps/web/src/app/api-base.ts (tools/infra-tests checks it).
 */
export const LOCAL_GATEWAY_PORT = 3000;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
const HSTS = 'max-age=31536000; includeSubDomains';
/** Calls (camera, microphone) come later; nothing asks for payment or USB. */
const PERMISSIONS_POLICY = 'camera=(self), microphone=(self), geolocation=(self), payment=(), usb=()';

/** `https://api.example` from a URL or origin; throws for anything that is not a plain http(s) origin. */
export function originOf(value) {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: ${value}`);
  return url.origin;
}

const socketOriginOf = (origin) => origin.replace(/^http/, 'ws');

/** `localhost` from `localhost:4200`, `::1` from `[::1]:4200`; lower-cased. */
function hostnameOf(host = '') {
  const value = String(host).toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'));
  return value.split(':')[0];
}

/** The build's view of the API (`.web-config.json`), or the defaults of an app built without one. */
function readWebConfig(root) {
  let raw;
  try {
    raw = fs.readFileSync(path.join(root, WEB_CONFIG_FILE), 'utf8');
  } catch {
    return { apiOrigin: null, scriptHashes: [] };
  }
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`web-server: ${path.join(root, WEB_CONFIG_FILE)} is not valid JSON`);
  }
  const scriptHashes = parsed?.scriptHashes ?? [];
  if (!Array.isArray(scriptHashes) || !scriptHashes.every((h) => typeof h === 'string' && SCRIPT_HASH.test(h))) {
    throw new Error(`web-server: ${path.join(root, WEB_CONFIG_FILE)} has a scriptHashes entry that is not 'sha256-<base64>'`);
  }
  return { apiOrigin: parsed?.apiOrigin ? originOf(parsed.apiOrigin) : null, scriptHashes };
}

/** One inline script the build allows by its hash (`'sha256-…'`), nothing else: no directive can ride in. */
const SCRIPT_HASH = /^'sha256-[A-Za-z0-9+/]{43}='$/;

/**
 * TRUST_PROXY as a predicate on the peer address: "false" (default), "true", a hop count, or a
 * comma list of addresses, CIDRs and the names loopback, linklocal, uniquelocal (as Express
 * spells them).
 */
export function compileTrustProxy(setting = 'false') {
  const value = String(setting).trim();
  if (value === '' || value === 'false') return () => false;
  if (value === 'true') return () => true;
  // A hop count (the gateway's k8s setting is 1): this server reads only its peer's word, so any
  // count from 1 trusts the peer.
  if (/^\d+$/.test(value)) return () => Number(value) >= 1;
  const NAMED = {
    loopback: ['127.0.0.1/8', '::1/128'],
    linklocal: ['169.254.0.0/16', 'fe80::/10'],
    uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  };
  const list = new net.BlockList();
  for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
    for (const range of NAMED[entry] ?? [entry]) {
      const [address, bits] = range.split('/');
      const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : null;
      if (!family) throw new Error(`TRUST_PROXY: not an address, CIDR or known name: ${entry}`);
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(bits), family);
    }
  }
  return (address) => {
    if (!address) return false;
    return list.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
  };
}

/**
 * The Content-Security-Policy for one request. `apiOrigins`: where the app calls (and loads
 * photos from) besides its own origin; on localhost without a configured API, the gateway's
 * local port on the same host, as the app itself decides.
 */
export function contentSecurityPolicy({ apiOrigins, photoOrigins = [], scriptHashes = [] }) {
  const api = apiOrigins.join(' ');
  const sockets = apiOrigins.map(socketOriginOf).join(' ');
  const directives = [
    "default-src 'self'",
    // The inline scripts of index.html the build wrote (its prerender), each by its hash.
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self'",
    // React's style={} props set element.style (CSSOM), which CSP allows; a style="" attribute
    // in markup would not be, and nothing the app renders has one (checked in Chromium).
    "style-src-attr 'none'",
    ["img-src 'self' data: blob:", api, ...photoOrigins].filter(Boolean).join(' '),
    ["connect-src 'self'", api, sockets].filter(Boolean).join(' '),
    "media-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ];
  return directives.join('; ');
}

/**
 * The headers of one app folder, checked once at start-up (a malformed origin throws, so nothing
 * can inject a directive). options: { apiOrigin?: string, photoOrigins?: string[], trustProxy?: string }.
 * Returns `cameOverHttps(req)` and `headersFor(req, https)` on Node's IncomingMessage.
 */
export function createSecurityHeaders(root, options = {}) {
  const webConfig = readWebConfig(root);
  const configuredApi = options.apiOrigin ? originOf(options.apiOrigin) : webConfig.apiOrigin;
  const photoOrigins = (options.photoOrigins ?? []).map(originOf);
  const trustProxy = compileTrustProxy(options.trustProxy);
  const policies = new Map();
  /** The CSP for this request: fixed, except on localhost when the app finds the gateway by port. */
  const policyFor = (req, https) => {
    let apiOrigins = configuredApi ? [configuredApi] : [];
    if (!configuredApi) {
      const hostname = hostnameOf(req.headers.host);
      // Only the two fixed names: nothing the client sends is copied into the header.
      if (LOCAL_HOSTS.has(hostname)) apiOrigins = [`${https ? 'https' : 'http'}://${hostname}:${LOCAL_GATEWAY_PORT}`];
    }
    const key = apiOrigins.join(' ');
    if (!policies.has(key)) policies.set(key, contentSecurityPolicy({ apiOrigins, photoOrigins, scriptHashes: webConfig.scriptHashes }));
    return policies.get(key);
  };
  /** TLS here, or a trusted proxy in front that says the browser used HTTPS. */
  const cameOverHttps = (req) => {
    if (req.socket.encrypted) return true;
    if (!trustProxy(req.socket.remoteAddress)) return false;
    const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    return proto === 'https';
  };
  const headersFor = (req, https) => ({
    'content-security-policy': policyFor(req, https),
    'permissions-policy': PERMISSIONS_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  });
  return { cameOverHttps, headersFor };
}
