import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SessionStore } from '@mate/server-kit';
import { startService, type RunningService } from '@mate/server-kit/testing';
import { createTestRedisNamespace } from '@mate/testing';
import { AppModule } from '../app.module';
import type { GatewayEnv } from '../gateway.env';
import { gatewayHttp } from '../gateway.http';

/** One request as a stand-in service received it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body once it ended; null while it streams or when it never ended. */
  body: string | null;
  /** The gateway cut the request before its body was complete. */
  aborted: boolean;
}

/**
 * A stand-in for a service that records every request when it arrives (before its body does) and
 * answers with what it received once the body ended. Knobs: `x-hold: 1` keeps the answer until
 * `releaseHeld()`; `x-echo-cache-control` sets the answer's Cache-Control; `x-answer-early: <status>`
 * answers at once with that status without reading the body (a guard refusing an upload before
 * multer reads it); `x-read-after-ms: <ms>` starts reading the body only that long after it arrived
 * (a busy service: the gateway meets backpressure).
 */
export interface RecordingUpstream {
  url: string;
  seen: SeenRequest[];
  /** Connections from the gateway open now. */
  connections(): Promise<number>;
  /** Requests whose answer is held now. */
  held(): number;
  releaseHeld(): void;
  close(): Promise<void>;
}

export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const seen: SeenRequest[] = [];
  const held: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const record: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: null, aborted: false };
    seen.push(record);
    const early = Number(req.headers['x-answer-early']);
    if (early) {
      res.writeHead(early, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'answered before the body' }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('close', () => {
      if (!req.complete) record.aborted = true;
    });
    const readAfterMs = Number(req.headers['x-read-after-ms'] ?? 0);
    const read = () => req.on('data', (c: Buffer) => chunks.push(c));
    if (readAfterMs > 0) setTimeout(read, readAfterMs);
    else read();
    req.on('end', () => {
      record.body = Buffer.concat(chunks).toString('utf8');
      const answer = () => {
        if (res.destroyed) return;
        const cacheControl = req.headers['x-echo-cache-control'] as string | undefined;
        res.writeHead(200, { 'content-type': 'application/json', ...(cacheControl ? { 'cache-control': cacheControl } : {}) });
        res.end(JSON.stringify({ path: record.path, headers: record.headers, body: record.body }));
      };
      if (req.headers['x-hold']) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n)))),
    held: () => held.length,
    releaseHeld: () => held.splice(0).forEach((answer) => answer()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An answer read off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  /** When the answer's head arrived (Date.now()). */
  at: number;
}

export interface RawExchange {
  /** Resolves with the answer once it is whole; rejects if the connection ends without one. */
  answer: Promise<RawAnswer>;
  /** Whether any byte of an answer has arrived yet. */
  answered(): boolean;
  /** Resolves when the gateway has closed the connection. */
  closed: Promise<void>;
  socket: net.Socket;
}

/**
 * A request written byte for byte on its own connection, from a chosen loopback address
 * (127.0.0.0/8 is all this machine, so each address is another client to the gateway). What it
 * sends is exactly `head` and `body`: a declared length the body never reaches is a stalled body.
 */
export function rawExchange(baseUrl: string, { from = '127.0.0.1', head, body = '' }: { from?: string; head: string; body?: string }): RawExchange {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect({ host: hostname, port: Number(port), localAddress: from });
  let received = Buffer.alloc(0);
  let resolveAnswer!: (a: RawAnswer) => void;
  let rejectAnswer!: (e: Error) => void;
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    resolveAnswer = resolve;
    rejectAnswer = reject;
  });
  let headAt = 0;
  const tryParse = (ended: boolean) => {
    const split = received.indexOf('\r\n\r\n');
    if (split < 0) return ended ? rejectAnswer(new Error(`connection ended without an answer: ${received.toString('utf8')}`)) : undefined;
    const lines = received.subarray(0, split).toString('latin1').split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = received.subarray(split + 4);
    let text: string | null;
    if (headers['transfer-encoding'] === 'chunked') {
      text = dechunk(rest);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      text = rest.length < length ? null : rest.subarray(0, length).toString('utf8');
    } else {
      text = ended ? rest.toString('utf8') : null;
    }
    if (text === null) return ended ? rejectAnswer(new Error(`connection ended within an answer: ${received.toString('utf8')}`)) : undefined;
    resolveAnswer({ status, headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, at: headAt });
  };
  socket.on('data', (chunk: Buffer) => {
    if (!headAt) headAt = Date.now();
    received = Buffer.concat([received, chunk]);
    tryParse(false);
  });
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      tryParse(true);
      resolve();
    }),
  );
  // A gateway that answers early and closes may reset a socket still writing: the answer counts.
  socket.on('error', () => undefined);
  socket.write(head + body);
  return { answer, answered: () => received.length > 0, closed, socket };
}

/** The body of a chunked answer once its last chunk arrived; null before. */
function dechunk(data: Buffer): string | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts).toString('utf8');
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A request head, byte for byte (no body, no Content-Length unless given). */
export function requestHead(baseUrl: string, method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${new URL(baseUrl).host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A gateway in this process in front of two stand-in services (auth-service and profile-service). */
export interface EdgeGateway {
  url: string;
  gateway: RunningService;
  sessions: SessionStore;
  auth: RecordingUpstream;
  profile: RecordingUpstream;
  close(): Promise<void>;
}

/**
 * Starts a gateway on its own Redis namespace with `JWT_SECRET`, silent logs and a rate limit no
 * test reaches, in front of a stand-in auth-service and profile-service; `overrides` adds or
 * replaces settings (a function of the stand-ins' URLs, to route more services to them).
 */
export async function startEdgeGateway(
  name: string,
  jwtSecret: string,
  overrides: Record<string, string> | ((upstreams: { auth: string; profile: string }) => Record<string, string>) = {},
): Promise<EdgeGateway> {
  const ns = await createTestRedisNamespace(name);
  const [auth, profile] = await Promise.all([startRecordingUpstream(), startRecordingUpstream()]);
  const extra = typeof overrides === 'function' ? overrides({ auth: auth.url, profile: profile.url }) : overrides;
  const gateway = await startService(
    (e) => AppModule.forRoot(e),
    {
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'silent',
      AUTH_SERVICE_URL: auth.url,
      PROFILE_SERVICE_URL: profile.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      ...extra,
    },
    (e) => gatewayHttp(e as GatewayEnv),
    { migrate: false },
  );
  return {
    url: gateway.url,
    gateway,
    sessions: gateway.app.get(SessionStore),
    auth,
    profile,
    close: async () => {
      await gateway.close();
      await Promise.all([auth.close(), profile.close()]);
      await ns.cleanup();
    },
  };
}

/**
 * Writes `body` to an exchange in pieces of `piece` bytes every `everyMs`, as a slow client would;
 * stops at the end of the body or when the connection closes. Resolves once it stopped.
 */
export function trickle(exchange: RawExchange, body: string, piece: number, everyMs: number): Promise<void> {
  return new Promise((resolve) => {
    let at = 0;
    const timer = setInterval(() => {
      if (exchange.socket.destroyed || at >= body.length) {
        clearInterval(timer);
        return resolve();
      }
      exchange.socket.write(body.slice(at, at + piece));
      at += piece;
    }, everyMs);
  });
}
