#!/usr/bin/env node
// Serves a built single-page app (web, admin-web) in containers and tests, with no dependencies.
//
//   PORT=4200 node tools/scripts/serve-static.mjs dist/apps/web
//
// - GET/HEAD only; `/health` answers 200 {"status":"ok"} (container and k8s probes).
// - Files get a content type by extension. Hashed build assets (`/assets/<name>-<hash>.<ext>`, as
//   Vite names them) are cached for a year as immutable; everything else, index.html above all,
//   is `no-cache` (revalidated with ETag / Last-Modified, answered 304 when unchanged).
// - SPA fallback: a path without a file extension that names no file gets index.html, so client
//   routes (/matches/42) load the app. A missing file with an extension is a 404, never HTML.
// - Path traversal (`..`, encoded or not), NUL bytes, dotfiles and symlinks leading outside the
//   root are refused.
// - Optional same-origin API: with API_PROXY_URL=http://gateway:3000 the paths in API_PROXY_PATHS
//   (default `/api,/socket.io`) are forwarded there, WebSocket upgrades included, so the browser
//   app can call relative `/api/...` URLs when no ingress sits in front (docker compose, e2e).
//
// - Security headers on everything it serves itself (ADR 0011): a strict Content-Security-Policy
//   (scripts and styles from the page's origin only; images, fetches and the socket also from the
//   API origin), Permissions-Policy, nosniff, Referrer-Policy, X-Frame-Options DENY, and HSTS
//   when the request came over HTTPS (TLS, or X-Forwarded-Proto: https from a TRUST_PROXY hop).
//   Source maps (*.map) are never served: 404.
// - The API origin in the CSP is the one the app was built to call: the build writes it to
//   `.web-config.json` (a dotfile, so never served) from VITE_API_URL; without one the app calls
//   its own origin, or port 3000 of the same host on localhost (apps/web/src/app/api-base.ts),
//   and the CSP says the same. API_ORIGIN overrides the build's value; PHOTO_ORIGINS adds image
//   origins (a CDN in front of the photos).
//
// Environment: PORT (default 4200; 0 picks a free port), HOST (default 127.0.0.1; the image sets
// 0.0.0.0), API_PROXY_URL, API_PROXY_PATHS, API_ORIGIN, PHOTO_ORIGINS, TRUST_PROXY ("false" by
// default; "true", a hop count, or a comma list of addresses, CIDRs and the names loopback,
// linklocal, uniquelocal: whose X-Forwarded-Proto to believe). Prints one line `serve-static listening on <url>`.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TEXT = '; charset=utf-8';
export const CONTENT_TYPES = {
  '.html': `text/html${TEXT}`,
  '.htm': `text/html${TEXT}`,
  '.js': `text/javascript${TEXT}`,
  '.mjs': `text/javascript${TEXT}`,
  '.cjs': `text/javascript${TEXT}`,
  '.css': `text/css${TEXT}`,
  '.json': `application/json${TEXT}`,
  '.webmanifest': `application/manifest+json${TEXT}`,
  '.txt': `text/plain${TEXT}`,
  '.xml': `application/xml${TEXT}`,
  '.svg': `image/svg+xml${TEXT}`,
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

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

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** `<name>-<hash>.<ext>` or `<name>.<hash>.<ext>` with a hash of 8+ url-safe characters. */
const HASHED_NAME = /[.-][A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function contentTypeOf(file) {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Long-lived caching only for content-addressed files under /assets/. */
export function cacheControlFor(urlPath) {
  return urlPath.startsWith('/assets/') && HASHED_NAME.test(urlPath) ? IMMUTABLE : REVALIDATE;
}

function send(res, status, body, headers = {}) {
  const buf = Buffer.from(body);
  res.writeHead(status, {
    'Content-Type': `text/plain${TEXT}`,
    'Content-Length': buf.length,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : buf);
}

function isSourceMap(file) {
  let decoded = file;
  try {
    decoded = decodeURIComponent(file);
  } catch {
    // resolveFile has refused it already
  }
  return /\.map\/*$/i.test(decoded);
}

/** `localhost` from `localhost:4200`, `::1` from `[::1]:4200`; lower-cased. */
function hostnameOf(host = '') {
  const value = String(host).toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'));
  return value.split(':')[0];
}

function isInside(root, candidate) {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/**
 * Maps a URL path to a file under root. Returns { file } for a regular file, { missing: true }
 * when nothing is there, or { status } for a request that must be refused.
 */
async function resolveFile(root, realRoot, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { status: 400 };
  const segments = decoded.split('/');
  if (segments.includes('..')) return { status: 403 };
  if (segments.some((s) => s.startsWith('.') && s !== '.well-known' && s !== '')) return { status: 404 };
  let file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (!isInside(root, file)) return { status: 403 };
  let stat = await fsp.stat(file).catch(() => null);
  if (stat?.isDirectory()) {
    file = path.join(file, 'index.html');
    stat = await fsp.stat(file).catch(() => null);
  }
  if (!stat?.isFile()) return { missing: true };
  const real = await fsp.realpath(file).catch(() => null);
  if (!real || !isInside(realRoot, real)) return { status: 403 };
  return { file, stat };
}

function serveFile(req, res, file, stat, cacheControl) {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const lastModified = stat.mtime.toUTCString();
  const headers = {
    'Content-Type': contentTypeOf(file),
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': lastModified,
  };
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const notModified = inm
    ? inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')
    : ims !== undefined &&
      !Number.isNaN(Date.parse(ims)) &&
      Math.floor(stat.mtimeMs / 1000) <= Date.parse(ims) / 1000;
  if (notModified) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': stat.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function forwardedHeaders(req, target, https) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const remote = req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = req.headers['x-forwarded-for']
    ? `${req.headers['x-forwarded-for']}, ${remote}`
    : remote;
  // What this hop knows (TLS or a trusted proxy's word), not what any client claims.
  headers['x-forwarded-proto'] = https ? 'https' : 'http';
  headers['x-forwarded-host'] = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  headers.host = target.host;
  return headers;
}

function proxyRequest(req, res, target, https) {
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: req.url,
      headers: forwardedHeaders(req, target, https),
    },
    (up) => {
      const headers = {};
      for (const [name, value] of Object.entries(up.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      res.writeHead(up.statusCode ?? 502, headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) send(res, 502, 'Bad Gateway\n');
    else res.destroy();
  });
  req.pipe(upstream);
}

function proxyUpgrade(req, socket, head, target, tunnels, https) {
  const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
    const headers = forwardedHeaders(req, target, https);
    headers.connection = 'Upgrade';
    headers.upgrade = req.headers.upgrade ?? 'websocket';
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) {
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head?.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  // Either side closing ends the tunnel (server sockets allow half-open connections).
  tunnels.add(socket);
  socket.on('close', () => {
    tunnels.delete(socket);
    upstream.destroy();
  });
  upstream.on('close', () => socket.destroy());
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
}

/** `https://api.example` from a URL or origin; throws for anything that is not a plain http(s) origin. */
export function originOf(value) {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: ${value}`);
  return url.origin;
}

const socketOriginOf = (origin) => origin.replace(/^http/, 'ws');

/** The build's view of the API (`.web-config.json`), or the defaults of an app built without one. */
function readWebConfig(root) {
  let raw;
  try {
    raw = fs.readFileSync(path.join(root, WEB_CONFIG_FILE), 'utf8');
  } catch {
    return { apiOrigin: null };
  }
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`serve-static: ${path.join(root, WEB_CONFIG_FILE)} is not valid JSON`);
  }
  return { apiOrigin: parsed?.apiOrigin ? originOf(parsed.apiOrigin) : null };
}

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

/** TLS here, or a trusted proxy in front that says the browser used HTTPS. */
function cameOverHttps(req, trustProxy) {
  if (req.socket.encrypted) return true;
  if (!trustProxy(req.socket.remoteAddress)) return false;
  const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
  return proto === 'https';
}

/**
 * The Content-Security-Policy for one request. `apiOrigins`: where the app calls (and loads
 * photos from) besides its own origin; on localhost without a configured API, the gateway's
 * local port on the same host, as the app itself decides.
 */
export function contentSecurityPolicy({ apiOrigins, photoOrigins = [] }) {
  const api = apiOrigins.join(' ');
  const sockets = apiOrigins.map(socketOriginOf).join(' ');
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
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
 * Builds (does not start) the server. options: { apiProxyUrl?: string, apiProxyPaths?: string[],
 * apiOrigin?: string, photoOrigins?: string[], trustProxy?: string }.
 */
export function createStaticServer(rootDir, options = {}) {
  const root = path.resolve(rootDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`serve-static: ${root} has no index.html (build the app first)`);
  }
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
    if (!policies.has(key)) policies.set(key, contentSecurityPolicy({ apiOrigins, photoOrigins }));
    return policies.get(key);
  };
  const securityHeaders = (req, https) => ({
    'Content-Security-Policy': policyFor(req, https),
    'Permissions-Policy': PERMISSIONS_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    ...(https ? { 'Strict-Transport-Security': HSTS } : {}),
  });
  const realRoot = fs.realpathSync(root);
  const indexFile = path.join(root, 'index.html');
  const target = options.apiProxyUrl ? new URL(options.apiProxyUrl) : undefined;
  const proxyPaths = (options.apiProxyPaths ?? ['/api', '/socket.io']).map((p) => p.replace(/\/+$/, ''));
  const isProxied = (urlPath) =>
    target && proxyPaths.some((p) => urlPath === p || urlPath.startsWith(`${p}/`));
  const pathOf = (req) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  };

  const server = http.createServer((req, res) => {
    const urlPath = pathOf(req);
    if (!urlPath.startsWith('/')) return send(res, 400, 'Bad Request\n');
    const https = cameOverHttps(req, trustProxy);
    if (isProxied(urlPath)) return proxyRequest(req, res, target, https);
    for (const [name, value] of Object.entries(securityHeaders(req, https))) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    }
    if (urlPath === '/health') {
      return send(res, 200, '{"status":"ok"}', { 'Content-Type': `application/json${TEXT}` });
    }
    resolveFile(root, realRoot, urlPath)
      .then(async (found) => {
        if (found.status) return send(res, found.status, `${http.STATUS_CODES[found.status]}\n`);
        // Source maps stay private (built with sourcemap: 'hidden' for error reporting). Judged on
        // the decoded path and the file found, so `%2Emap` or a trailing slash changes nothing.
        if (isSourceMap(urlPath) || (found.file && isSourceMap(found.file))) return send(res, 404, 'Not Found\n');
        if (found.file) return serveFile(req, res, found.file, found.stat, cacheControlFor(urlPath));
        if (path.posix.extname(urlPath) !== '') return send(res, 404, 'Not Found\n');
        const stat = await fsp.stat(indexFile);
        return serveFile(req, res, indexFile, stat, REVALIDATE);
      })
      .catch(() => {
        if (!res.headersSent) send(res, 500, 'Internal Server Error\n');
        else res.destroy();
      });
  });

  const tunnels = new Set();
  server.on('upgrade', (req, socket, head) => {
    if (isProxied(pathOf(req))) proxyUpgrade(req, socket, head, target, tunnels, cameOverHttps(req, trustProxy));
    else socket.destroy();
  });
  // Closing the server also drops proxied WebSockets (clients reconnect to another replica);
  // server.close() alone would wait for them, they are not HTTP connections any more.
  const close = server.close.bind(server);
  server.close = (callback) => {
    const result = close(callback);
    tunnels.forEach((t) => t.destroy());
    return result;
  };
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancer idle timeouts
  return server;
}

function main() {
  const [rootDir] = process.argv.slice(2);
  if (!rootDir) {
    process.stderr.write(
      'usage: node tools/scripts/serve-static.mjs <dir>   (PORT, HOST, API_PROXY_URL, API_ORIGIN, PHOTO_ORIGINS, TRUST_PROXY)\n',
    );
    process.exit(64);
  }
  const port = Number(process.env.PORT ?? 4200);
  const host = process.env.HOST || '127.0.0.1';
  let server;
  try {
    server = createStaticServer(rootDir, {
      apiProxyUrl: process.env.API_PROXY_URL || undefined,
      apiProxyPaths: process.env.API_PROXY_PATHS
        ? process.env.API_PROXY_PATHS.split(',').map((s) => s.trim())
        : undefined,
      apiOrigin: process.env.API_ORIGIN || undefined,
      photoOrigins: (process.env.PHOTO_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      trustProxy: process.env.TRUST_PROXY,
    });
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  server.on('error', (e) => {
    process.stderr.write(`serve-static: ${e.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const addr = server.address();
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    process.stdout.write(
      `serve-static listening on http://${shown}:${addr.port} (root ${path.resolve(rootDir)})\n`,
    );
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function invokedDirectly() {
  try {
    return (
      Boolean(process.argv[1]) && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href
    );
  } catch {
    return false;
  }
}

if (invokedDirectly()) main();
