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
// Environment: PORT (default 4200; 0 picks a free port), HOST (default 127.0.0.1; the image sets
// 0.0.0.0), API_PROXY_URL, API_PROXY_PATHS. Prints one line `serve-static listening on <url>`.
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
  '.map': `application/json${TEXT}`,
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
    'X-Content-Type-Options': 'nosniff',
  };
  if (file.endsWith('.html')) {
    headers['X-Frame-Options'] = 'DENY';
    headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
  }
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

function forwardedHeaders(req, target) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const remote = req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = req.headers['x-forwarded-for']
    ? `${req.headers['x-forwarded-for']}, ${remote}`
    : remote;
  headers['x-forwarded-proto'] = req.headers['x-forwarded-proto'] ?? 'http';
  headers['x-forwarded-host'] = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  headers.host = target.host;
  return headers;
}

function proxyRequest(req, res, target) {
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: req.url,
      headers: forwardedHeaders(req, target),
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

function proxyUpgrade(req, socket, head, target, tunnels) {
  const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
    const headers = forwardedHeaders(req, target);
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

/**
 * Builds (does not start) the server. options: { apiProxyUrl?: string, apiProxyPaths?: string[] }.
 */
export function createStaticServer(rootDir, options = {}) {
  const root = path.resolve(rootDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`serve-static: ${root} has no index.html (build the app first)`);
  }
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
    if (isProxied(urlPath)) return proxyRequest(req, res, target);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    }
    if (urlPath === '/health') {
      return send(res, 200, '{"status":"ok"}', { 'Content-Type': `application/json${TEXT}` });
    }
    resolveFile(root, realRoot, urlPath)
      .then(async (found) => {
        if (found.status) return send(res, found.status, `${http.STATUS_CODES[found.status]}\n`);
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
    if (isProxied(pathOf(req))) proxyUpgrade(req, socket, head, target, tunnels);
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
    process.stderr.write('usage: node tools/scripts/serve-static.mjs <dir>   (PORT, HOST, API_PROXY_URL)\n');
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
