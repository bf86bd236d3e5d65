import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { Transform, type TransformCallback } from 'node:stream';
import type { Request, Response } from 'express';
import { INTERNAL_TOKEN_HEADER } from '@mate/contracts';
import { hasBody } from './body';

/** Headers that describe one connection, not the message: never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * How long an idle kept-alive connection to a service is kept. Without a value Node's agent keeps
 * idle sockets forever and ignores the server's `Keep-Alive: timeout=5` hint, so it can reuse a
 * socket at the moment the service closes it (ECONNRESET: a 503 for a healthy service). With it,
 * the agent closes idle sockets first: after this long, or a second before the service's hint.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 4000;

/** How often a streamed body's progress is checked against its minimum rate. */
export const BODY_PROGRESS_CHECK_MS = 1000;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

export class UpstreamTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** A streamed (upload) body that had not fully arrived by its deadline. */
export class BodyTimeoutError extends Error {
  constructor(ms: number) {
    super(`request body not received within ${ms} ms`);
  }
}

/** A streamed (upload) body arriving slower than its minimum rate, past its grace period. */
export class BodyTooSlowError extends Error {
  constructor(received: number, minBytesPerSecond: number) {
    super(`request body too slow: ${received} bytes, under ${minBytesPerSecond} bytes/s`);
  }
}

/** No connection to the service came free in time: the service's pool is full (a capacity problem). */
export class UpstreamQueueTimeoutError extends Error {
  readonly code = 'EQUEUETIMEOUT';
  constructor(ms: number) {
    super(`no connection to the service free within ${ms} ms`);
  }
}

/** Passes a body through, failing once more than `limit` bytes went by (bodies without Content-Length). */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.limit) return done(new BodyTooLargeError(this.limit));
    done(null, chunk);
  }
}

/** Hop-by-hop headers plus the ones the Connection header names for this hop. */
function hopHeaders(connection: string | undefined): (name: string) => boolean {
  if (!connection) return (name) => HOP_BY_HOP.has(name);
  const listed = connection.toLowerCase().split(',').map((h) => h.trim());
  return (name) => HOP_BY_HOP.has(name) || listed.includes(name);
}

function append(existing: string | string[] | undefined, value: string): string {
  const prior = Array.isArray(existing) ? existing.join(', ') : existing;
  return prior ? `${prior}, ${value}` : value;
}

/** Headers the gateway sets itself: a client's own are dropped (each is set once below). */
const REPLACED = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-host', INTERNAL_TOKEN_HEADER]);

/**
 * The request's headers minus hop-by-hop ones and any client-sent internal credential, plus the
 * X-Forwarded-* set, the gateway's own credential, and the length of a body read at the edge
 * (then without the client's Content-Length). As name, value pairs in one array: http.request
 * then writes them as they are (each still validated) instead of copying them into its header map
 * one setHeader at a time. `target` names the Host when the client sent none (HTTP/1.0).
 */
function outgoingHeaders(req: Request, internalToken: string | undefined, body: Buffer | undefined, target: URL): string[] {
  const incoming = req.headers;
  const skip = hopHeaders(incoming.connection);
  const out: string[] = [];
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || skip(name) || REPLACED.has(name) || (body && name === 'content-length')) continue;
    // Only Set-Cookie stays a list in a parsed request: one line each, as http.request writes a list.
    if (typeof value === 'string') out.push(name, value);
    else for (const each of value) out.push(name, each);
  }
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  const host = incoming.host ?? '';
  if (!host) out.push('host', target.host);
  const port = /:(\d+)$/.exec(host)?.[1] ?? (encrypted ? '443' : '80');
  // One value, never the client's own header: services rate-limit by this address, so a client
  // must not be able to choose it. req.ip honours the gateway's TRUST_PROXY setting (the ingress).
  out.push('x-forwarded-for', req.ip ?? req.socket.remoteAddress ?? '');
  out.push('x-forwarded-proto', append(incoming['x-forwarded-proto'], encrypted ? 'https' : 'http'));
  out.push('x-forwarded-port', append(incoming['x-forwarded-port'], port));
  out.push('x-forwarded-host', String(incoming['x-forwarded-host'] ?? host));
  // Services believe X-Forwarded-* only with this credential, so only the gateway can say it.
  if (internalToken) out.push(INTERNAL_TOKEN_HEADER, internalToken);
  // A chunked body read whole goes on with its length (Transfer-Encoding is hop-by-hop).
  if (body) out.push('content-length', String(body.length));
  return out;
}

export interface ForwarderOptions {
  /** Connections kept open to each service at most for ordinary calls; further requests wait for one. */
  maxSockets: number;
  /** The same for uploads, a pool of their own so slow uploads never hold the ordinary connections. */
  maxUploadSockets: number;
  /** Sent in INTERNAL_TOKEN_HEADER on every forwarded request. */
  internalToken?: string;
}

export interface ForwardOptions {
  timeoutMs: number;
  /** How long the request may wait for a connection to the service when all of them are busy. */
  queueTimeoutMs: number;
  /** An upload: goes over the upload connections. */
  upload: boolean;
  /** The whole body, already read at the edge (ordinary calls): sent at once with its length. */
  body?: Buffer;
  /** Called once the body read at the edge has been handed to the service's connection. */
  onBodySent?(): void;
  /** Streamed bodies (uploads): largest body passed on when it has no Content-Length (chunked). */
  bodyLimit: number;
  /** Streamed bodies (uploads): time left for the rest of the body to arrive. */
  bodyTimeoutMs: number;
  /** Streamed bodies (uploads): longest pause between two pieces of the body. */
  bodyIdleTimeoutMs: number;
  /**
   * Streamed bodies (uploads): the slowest the body may come on average once `bodyGraceMs` have
   * gone by; time the service spent not reading it (backpressure) is not counted.
   */
  bodyMinBytesPerSecond: number;
  bodyGraceMs: number;
  /** Called once when the upstream cannot be reached or fails before answering (no headers sent yet). */
  onUnavailable(err: Error): void;
  /** Called once when a chunked body grows over bodyLimit (no headers sent yet). */
  onTooLarge(): void;
  /** Called once when a streamed body is still incomplete at its deadline (no headers sent yet). */
  onBodyTimeout(): void;
  /** Called when something fails after the answer started (the response is then cut off). */
  onBroken(err: Error): void;
}

/**
 * A small streaming reverse proxy on node:http: one upstream per target URL, keep-alive sockets,
 * bodies passed on (whole when the edge read them, streamed otherwise), hop-by-hop headers
 * dropped, X-Forwarded-* and the internal credential added, and each failure reported once to
 * the caller (who answers it).
 */
export class Forwarder {
  private readonly agents: { http: http.Agent; https: https.Agent; uploadHttp: http.Agent; uploadHttps: https.Agent };
  private readonly internalToken: string | undefined;

  constructor({ maxSockets, maxUploadSockets, internalToken }: ForwarderOptions) {
    const pool = (max: number) => ({ keepAlive: true, maxSockets: max, maxFreeSockets: max, scheduling: 'lifo' as const, timeout: IDLE_SOCKET_TIMEOUT_MS });
    this.agents = {
      http: new http.Agent(pool(maxSockets)),
      https: new https.Agent(pool(maxSockets)),
      uploadHttp: new http.Agent(pool(maxUploadSockets)),
      uploadHttps: new https.Agent(pool(maxUploadSockets)),
    };
    this.internalToken = internalToken;
  }

  forward(req: Request, res: Response, target: URL, options: ForwardOptions): void {
    const secure = target.protocol === 'https:';
    const base = target.pathname === '/' ? '' : target.pathname.replace(/\/$/, '');
    let settled = false;
    // The queue and body deadlines, set below.
    const timers: { queue?: NodeJS.Timeout; body?: NodeJS.Timeout; idle?: NodeJS.Timeout; progress?: NodeJS.Timeout } = {};
    const stopTimers = () => {
      clearTimeout(timers.queue);
      clearTimeout(timers.body);
      clearTimeout(timers.idle);
      clearInterval(timers.progress);
    };
    const fail = (kind: 'unavailable' | 'tooLarge' | 'bodyTimeout' | 'broken', err: Error) => {
      if (settled) return;
      settled = true;
      stopTimers();
      proxyReq.destroy();
      if (res.writableEnded || res.destroyed) return;
      if (res.headersSent) {
        options.onBroken(err);
        res.destroy();
      } else if (kind === 'tooLarge') {
        options.onTooLarge();
      } else if (kind === 'bodyTimeout') {
        options.onBodyTimeout();
      } else {
        options.onUnavailable(err);
      }
    };

    const proxyReq = (secure ? https : http).request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || (secure ? 443 : 80),
      method: req.method,
      path: base + req.url,
      headers: outgoingHeaders(req, this.internalToken, options.body, target),
      agent: options.upload ? (secure ? this.agents.uploadHttps : this.agents.uploadHttp) : secure ? this.agents.https : this.agents.http,
    });
    // The agent queues a request while all its connections to the service are busy; Node gives
    // it no deadline there (setTimeout below starts with a socket). A destroyed request hands its
    // socket straight on when its turn comes, so it leaves the queue at no cost.
    timers.queue = setTimeout(() => fail('unavailable', new UpstreamQueueTimeoutError(options.queueTimeoutMs)), options.queueTimeoutMs);
    proxyReq.once('socket', () => clearTimeout(timers.queue));
    proxyReq.setTimeout(options.timeoutMs, () => fail('unavailable', new UpstreamTimeoutError(options.timeoutMs)));
    proxyReq.on('error', (err) => fail('unavailable', err));
    proxyReq.on('response', (upstream) => {
      if (settled) return void upstream.resume();
      const skip = hopHeaders(upstream.headers.connection);
      const headers: http.OutgoingHttpHeaders = {};
      for (const name in upstream.headers) {
        if (!skip(name)) headers[name] = upstream.headers[name];
      }
      // The service answered before the whole body came (a 403, 429 or 404 to an upload): the
      // rest of the body is of no use. Left alone, Node would keep reading it to reuse the client
      // connection, and the pipe below would hold the service connection just as long (a trickle
      // of bytes for minutes). So the answer closes the connection, and once it is written both
      // sides are cut.
      const early = !options.body && !req.complete;
      if (early) headers.connection = 'close';
      res.writeHead(upstream.statusCode ?? 502, headers);
      upstream.on('error', (err) => fail('broken', err));
      if (early) {
        res.once('finish', () => {
          settled = true;
          stopTimers();
          proxyReq.destroy();
          req.socket.destroySoon();
        });
      }
      upstream.pipe(res);
    });
    // The caller went away before its answer was done: stop the upstream work and the deadlines.
    // A finished answer leaves the body deadlines running until the body ends: an answer given
    // before it did is handled above.
    res.on('close', () => {
      clearTimeout(timers.queue);
      if (!res.writableFinished && !settled) {
        settled = true;
        stopTimers();
        proxyReq.destroy();
      }
    });
    req.on('error', (err) => fail('broken', err));

    if (options.body) {
      proxyReq.end(options.body, () => options.onBodySent?.());
      return;
    }
    if (!options.upload && !hasBody(req)) {
      // Nothing to pass on: end the service's request now rather than piping an empty stream into
      // it (listeners, a tick, and the end only after it). Node drains the request once answered.
      proxyReq.end();
      return;
    }
    const chunked = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined;
    const limited = chunked ? new ByteLimit(options.bodyLimit) : null;
    if (!req.complete) {
      // A streamed body (an upload) must have arrived by its deadline (scaled to its length by the
      // caller), with no long pause between two pieces, and keep up a minimum rate once its grace
      // period is over, or the exchange is cut. req.complete says whether the client sent it all,
      // whether or not the service read it yet.
      const late = () => {
        if (!req.complete) fail('bodyTimeout', new BodyTimeoutError(options.bodyTimeoutMs));
      };
      timers.body = setTimeout(late, Math.max(0, options.bodyTimeoutMs));
      const idle = () => {
        // Not reading because the service is not (backpressure) is not the client's pause.
        if (req.readableFlowing === false && !req.complete) return void timers.idle?.refresh();
        if (!req.complete) fail('bodyTimeout', new BodyTimeoutError(options.bodyIdleTimeoutMs));
      };
      timers.idle = setTimeout(idle, Math.max(0, options.bodyIdleTimeoutMs));

      // Progress: bytes received against the time the gateway was reading. The pipe below pauses
      // the request while the service's side is full and goes on at its 'drain': that time is
      // the service's, so it is left out of the client's clock.
      const sink = limited ?? proxyReq;
      const started = Date.now();
      let received = 0;
      let stalledMs = 0;
      let stalledSince: number | null = null;
      const stalled = () => {
        stalledSince ??= Date.now();
      };
      const flowing = () => {
        if (stalledSince === null) return;
        stalledMs += Date.now() - stalledSince;
        stalledSince = null;
      };
      const progress = () => {
        if (req.complete) return;
        if (req.readableFlowing === false) stalled();
        else flowing();
        const now = Date.now();
        const clientMs = now - started - stalledMs - (stalledSince === null ? 0 : now - stalledSince);
        const owed = (options.bodyMinBytesPerSecond * (clientMs - options.bodyGraceMs)) / 1000;
        if (received < owed) fail('bodyTimeout', new BodyTooSlowError(received, options.bodyMinBytesPerSecond));
      };
      timers.progress = setInterval(progress, BODY_PROGRESS_CHECK_MS);
      req.on('pause', stalled);
      sink.on('drain', flowing);

      const arrived = (chunk: Buffer) => {
        received += chunk.length;
        flowing();
        timers.idle?.refresh();
      };
      req.on('data', arrived);
      const bodyOver = () => {
        clearTimeout(timers.body);
        clearTimeout(timers.idle);
        clearInterval(timers.progress);
        req.off('data', arrived);
        req.off('pause', stalled);
        sink.off('drain', flowing);
      };
      req.once('end', bodyOver);
      req.once('close', bodyOver);
    }
    if (limited) {
      limited.on('error', (err) => fail(err instanceof BodyTooLargeError ? 'tooLarge' : 'broken', err));
      req.pipe(limited).pipe(proxyReq);
    } else {
      req.pipe(proxyReq);
    }
  }

  close() {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}
