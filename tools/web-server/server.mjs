#!/usr/bin/env node
// Serves a built single-page app (web, admin-web) everywhere it runs: `npm start`, the e2e run, the
// container images and the Kubernetes pods (ADR 0025). fastify, @fastify/static and
// @fastify/http-proxy do the serving; this file says how.
//
//   PORT=4200 node tools/web-server/server.mjs dist/apps/web
//
// - GET/HEAD only (405 with Allow otherwise); `/health` answers 200 {"status":"ok"} (container and
//   k8s probes).
// - Compression made at build time: the build writes `<file>.br` and `<file>.gz` beside each text
//   file of 1 KB or more (tools/vite/build-plugins.ts); a request that accepts br gets the `.br` with
//   `Content-Encoding: br`, else gzip likewise, else the file itself; `Vary: Accept-Encoding`.
//   Nothing is compressed per request.
// - Files get a content type by extension (CONTENT_TYPES, whichever encoding is sent). Hashed
//   build assets (`/assets/<name>-<hash>.<ext>`, as Vite names them) are cached for a year as
//   immutable; everything else — index.html, sw.js, manifest.webmanifest — is `no-cache`
//   (revalidated with ETag / Last-Modified, answered 304 when unchanged), so a new release and a
//   new service worker are seen at once.
// - SPA fallback: a path without a file extension that names no file gets index.html (precompressed
//   too), so client routes (/matches/42) load the app. A missing file with an extension is a 404,
//   never HTML.
// - Path traversal (`..`, encoded or not), NUL bytes, backslashes, dotfiles (but `.well-known`)
//   and symlinks leading outside the root are refused. Source maps (*.map, `%2Emap` too) are never
//   served: 404.
// - Security headers on everything it serves itself: security-headers.mjs (ADR 0011).
// - Optional same-origin API: with API_PROXY_URL=http://gateway:3000 the paths in API_PROXY_PATHS
//   (default `/api,/socket.io`) are forwarded there, WebSocket upgrades included, so the browser
//   app can call relative `/api/...` URLs when no ingress sits in front (docker compose, e2e).
//   Their answers are left as the upstream sent them (no CSP added); X-Forwarded-For/-Host are
//   passed on and X-Forwarded-Proto says what this hop knows, not what a client claims.
//
// - The deployment's settings for the app, at run time: API_ORIGIN (the gateway the app calls; the
//   CSP allows it), MEMBER_WEB_URL and ADMIN_WEB_URL (the other app) go into index.html as meta
//   tags (page-settings.mjs), so one build serves any host and port.
//
// Environment: PORT (default 4200; 0 picks a free port), HOST (default 127.0.0.1; the image sets
// 0.0.0.0), API_PROXY_URL, API_PROXY_PATHS, API_ORIGIN, MEMBER_WEB_URL, ADMIN_WEB_URL, PHOTO_ORIGINS, TRUST_PROXY ("false" by
// default; "true", a hop count, or a comma list of addresses, CIDRs and the names loopback,
// linklocal, uniquelocal: whose X-Forwarded-Proto to believe). Prints one line
// `web-server listening on <url>`; logs warnings and errors as JSON lines (pino), request paths
// without their query (socket.io sends the token there).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyHttpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { settledPage } from './page-settings.mjs';
import { createSecurityHeaders } from './security-headers.mjs';

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

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** `<name>-<hash>.<ext>` or `<name>.<hash>.<ext>` with a hash of 8+ url-safe characters. */
const HASHED_NAME = /[.-][A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;
/** The file @fastify/static sends for each Content-Encoding it picks (preCompressed). */
const PRECOMPRESSED_SUFFIX = { br: '.br', gzip: '.gz' };
/**
 * Request headers not passed to the upstream: hop-by-hop ones (RFC 9110 §7.6.1), and Expect,
 * which this server has answered already (undici refuses to send it).
 */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

export function contentTypeOf(file) {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Long-lived caching only for content-addressed files under /assets/. */
export function cacheControlFor(urlPath) {
  return urlPath.startsWith('/assets/') && HASHED_NAME.test(urlPath) ? IMMUTABLE : REVALIDATE;
}

const pathOf = (url = '/') => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

const isSourceMap = (decodedPath) => /\.map\/*$/i.test(decodedPath);

function isInside(root, candidate) {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/**
 * Why a static request must be refused before any file is looked at (an HTTP status), or null.
 * Judged on the decoded path, so `%2e%2e`, `%2Emap` or a trailing slash change nothing.
 */
function refusalOf(urlPath) {
  if (!urlPath.startsWith('/')) return 400;
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return 400;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return 400;
  const segments = decoded.split('/');
  if (segments.includes('..')) return 403;
  if (segments.some((s) => s.startsWith('.') && s !== '.well-known' && s !== '')) return 404;
  // Source maps stay private (built with sourcemap: 'hidden' for error reporting).
  if (isSourceMap(decoded)) return 404;
  return null;
}

/** A short plain-text answer of this server's own (errors, refusals). */
function answer(reply, status, body = `${STATUS_CODES[status]}\n`, contentType = `text/plain${TEXT}`) {
  return reply
    .code(status)
    .header('content-type', contentType)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/** The settled index.html in the encoding the client takes best, validated by its ETag (304). */
function sendSettledPage(page, request, reply) {
  const encoding = encodings.negotiate(request.headers['accept-encoding']) ?? 'identity';
  const { body, etag } = page[encoding];
  reply
    .header('content-type', contentTypeOf('index.html'))
    .header('cache-control', REVALIDATE)
    .header('vary', 'Accept-Encoding')
    .header('etag', etag);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
  if (known.includes(etag) || known.includes('*')) return reply.code(304).send();
  return reply.header('content-length', body.length).send(body);
}

/** What the upstream is told about the request, on top of the headers it is passed. */
function withForwardingHeaders(headers, request, https) {
  for (const name of NOT_FORWARDED) delete headers[name];
  const remote = request.raw.socket.remoteAddress ?? '';
  const prior = request.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${remote}` : remote;
  // What this hop knows (TLS or a trusted proxy's word), not what any client claims.
  headers['x-forwarded-proto'] = https ? 'https' : 'http';
  headers['x-forwarded-host'] = request.headers['x-forwarded-host'] ?? request.headers.host ?? '';
  return headers;
}

/** Request paths without their query string: socket.io carries the session token there. */
const logSerializers = {
  req: (req) => ({ method: req.method, url: pathOf(req.url) }),
};

/** The logger the CLI runs with: JSON lines at warn (upstream failures, 5xx), never a query string. */
export const LOGGER = { level: 'warn', serializers: logSerializers };

/**
 * Builds (does not start) the server: a fastify instance, ready to `listen`. options: {
 * apiProxyUrl?: string, apiProxyPaths?: string[], apiOrigin?: string, memberWebUrl?: string,
 * adminWebUrl?: string, photoOrigins?: string[],
 * trustProxy?: string, logger?: fastify logger options (default: none) }.
 */
export function createWebServer(rootDir, options = {}) {
  const root = path.resolve(rootDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`web-server: ${root} has no index.html (build the app first)`);
  }
  const security = createSecurityHeaders(root, options);
  const realRoot = fs.realpathSync(root);
  const target = options.apiProxyUrl ? new URL(options.apiProxyUrl) : undefined;
  const proxyPaths = (options.apiProxyPaths ?? ['/api', '/socket.io']).map((p) => p.replace(/\/+$/, ''));

  const app = Fastify({
    logger: options.logger ?? false,
    // A malformed URL (`/%E0%A4%A`) gets the same short 400 as every other refusal.
    frameworkErrors: (_error, _request, reply) => answer(reply, 400),
  });
  const isProxied = (request) => request.routeOptions.config?.proxied === true;
  /** The file @fastify/static chose for a reply (maybe `<file>.br`), for onSend to describe. */
  const servedFiles = new WeakMap();

  app.setErrorHandler((error, request, reply) => {
    servedFiles.delete(reply);
    const status = error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error, req: request.raw }, 'request failed');
    return answer(reply, status);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (isProxied(request)) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answer(reply.header('allow', 'GET, HEAD'), 405);
    }
    const refused = refusalOf(pathOf(request.raw.url));
    if (refused) return answer(reply, refused);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (isProxied(request)) return payload;
    reply.headers(security.headersFor(request.raw, security.cameOverHttps(request.raw)));
    const file = servedFiles.get(reply);
    if (file) {
      // Described as the file it encodes: `index.html.br` is text/html, cached as index.html.
      const suffix = PRECOMPRESSED_SUFFIX[reply.getHeader('content-encoding')];
      const logical = suffix && file.endsWith(suffix) ? file.slice(0, -suffix.length) : file;
      const urlPath = `/${path.relative(root, logical).split(path.sep).join('/')}`;
      reply.header('content-type', contentTypeOf(logical));
      reply.header('cache-control', cacheControlFor(urlPath));
    }
    return payload;
  });

  app.get('/health', (_request, reply) => answer(reply, 200, '{"status":"ok"}', `application/json${TEXT}`));

  app.register(fastifyStatic, {
    root,
    preCompressed: true,
    // Dotfiles are refused in onRequest, where `.well-known` can stay allowed.
    dotfiles: 'allow',
    index: ['index.html'],
    cacheControl: false,
    setHeaders: (reply, file) => servedFiles.set(reply, file),
    // The last word on the file actually opened (an index, a `.br` sibling): inside the root,
    // symlinks resolved.
    onFile: async (file) => {
      const real = await fsp.realpath(file);
      if (!isInside(realRoot, real)) throw Object.assign(new Error('outside the root'), { statusCode: 403 });
    },
  });

  // index.html as built, or with the deployment's settings in it (page-settings.mjs) from memory.
  const page = settledPage(root, options);
  const sendIndex = page ? (request, reply) => sendSettledPage(page, request, reply) : (_request, reply) => reply.sendFile('index.html');
  if (page) {
    app.get('/', sendIndex);
    app.get('/index.html', sendIndex);
  }
  app.setNotFoundHandler((request, reply) => {
    if (path.posix.extname(pathOf(request.raw.url)) !== '') return answer(reply, 404);
    return sendIndex(request, reply);
  });

  if (target) {
    for (const prefix of proxyPaths) {
      app.register(fastifyHttpProxy, {
        upstream: target.origin,
        prefix,
        rewritePrefix: prefix,
        websocket: true,
        config: { proxied: true },
        replyOptions: {
          rewriteRequestHeaders: (request, headers) =>
            withForwardingHeaders(headers, request, security.cameOverHttps(request.raw)),
          rewriteHeaders: (headers) => {
            for (const name of NOT_FORWARDED) delete headers[name];
            return headers;
          },
          // One try, as the browser asked: a 503 from the gateway (Retry-After) goes back as it is.
          retryDelay: () => null,
          onError: (reply) => answer(reply, 502),
        },
        wsClientOptions: {
          // The browser's headers but its own handshake (the client to the upstream makes a new one).
          rewriteRequestHeaders: (_headers, request) => {
            const headers = { ...request.headers };
            delete headers.host;
            for (const name of Object.keys(headers)) {
              if (name.startsWith('sec-websocket-')) delete headers[name];
            }
            return withForwardingHeaders(headers, request, security.cameOverHttps(request.raw));
          },
        },
      });
    }
  }
  return app;
}

async function main() {
  const [rootDir] = process.argv.slice(2);
  if (!rootDir) {
    process.stderr.write(
      'usage: node tools/web-server/server.mjs <dir>   (PORT, HOST, API_PROXY_URL, API_PROXY_PATHS, API_ORIGIN, MEMBER_WEB_URL, ADMIN_WEB_URL, PHOTO_ORIGINS, TRUST_PROXY)\n',
    );
    process.exit(64);
  }
  const port = Number(process.env.PORT ?? 4200);
  const host = process.env.HOST || '127.0.0.1';
  let app;
  try {
    app = createWebServer(rootDir, {
      apiProxyUrl: process.env.API_PROXY_URL || undefined,
      apiProxyPaths: process.env.API_PROXY_PATHS
        ? process.env.API_PROXY_PATHS.split(',').map((s) => s.trim())
        : undefined,
      apiOrigin: process.env.API_ORIGIN || undefined,
      memberWebUrl: process.env.MEMBER_WEB_URL || undefined,
      adminWebUrl: process.env.ADMIN_WEB_URL || undefined,
      photoOrigins: (process.env.PHOTO_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      trustProxy: process.env.TRUST_PROXY,
      logger: LOGGER,
    });
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  // In-flight requests finish, idle connections close, proxied WebSockets are closed (clients
  // reconnect to another replica); whatever still hangs after 10 s is cut. Set before the
  // "listening" line: whoever reads it may stop us at once.
  const stop = () => {
    setTimeout(() => process.exit(0), 10_000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await app.listen({ port, host });
  } catch (e) {
    process.stderr.write(`web-server: ${e.message}\n`);
    process.exit(1);
  }
  const addr = app.server.address();
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  process.stdout.write(`web-server listening on http://${shown}:${addr.port} (root ${path.resolve(rootDir)})\n`);
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

if (invokedDirectly()) void main();
