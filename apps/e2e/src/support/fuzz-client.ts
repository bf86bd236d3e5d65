import http from 'node:http';
import net from 'node:net';

export interface FuzzRequest {
  method: string;
  /** Path and query, sent as given (already percent-encoded where needed). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body in two chunks with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A 4xx as the platform writes them: JSON with a string `error`. */
export function isOneOfOurErrors(answer: Answer): boolean {
  if (!/^application\/json\b/.test(answer.contentType)) return false;
  try {
    return typeof (JSON.parse(answer.text) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

const FIRST_SOURCE = 100;
const SOURCES = 100;

/**
 * Raw HTTP/1.1 to the gateway with node:http (fetch refuses some of the headers a fuzzer sends),
 * one connection per request, each from the next loopback address of 127.0.0.100-199 so a
 * fuzz run has its own per-address budgets. Where those addresses cannot be bound (not Linux),
 * every request leaves from the default address.
 */
export class FuzzClient {
  private readonly url: URL;
  private next = 0;
  private rotate = true;

  constructor(base: string) {
    this.url = new URL(base);
  }

  /** Checks whether the loopback range can be used as source addresses. */
  async ready(): Promise<void> {
    this.rotate = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: this.url.hostname, port: Number(this.url.port), localAddress: `127.0.0.${FIRST_SOURCE}` });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }

  send(request: FuzzRequest, timeoutMs = 15_000): Promise<Answer> {
    const localAddress = this.rotate ? `127.0.0.${FIRST_SOURCE + (this.next++ % SOURCES)}` : undefined;
    const headers: Record<string, string | number> = { ...request.headers, connection: 'close' };
    if (request.body && request.chunked) headers['transfer-encoding'] = 'chunked';
    else if (request.body) headers['content-length'] = request.body.length;
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        { host: this.url.hostname, port: this.url.port, method: request.method, path: request.path, headers, localAddress, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      if (request.body && request.chunked) {
        const half = Math.floor(request.body.length / 2);
        req.write(request.body.subarray(0, half));
        req.end(request.body.subarray(half));
      } else {
        req.end(request.body);
      }
    });
  }

  /** A plain JSON call (setting up the member). */
  json(method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
    return this.send({
      method,
      path,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
    });
  }
}

/**
 * UTF-7 (RFC 2152) as a client declaring `charset=utf-7` sends it: each run of characters outside
 * the directly encoded set is '+', base64 of its UTF-16BE code units, '-'. A JSON text's brackets
 * and quotes are never direct, so its structure is invisible in the bytes.
 */
export function utf7(text: string): Buffer {
  const direct = /[A-Za-z0-9'(),\-./:? \t\r\n]/;
  let out = '';
  let run = '';
  const flush = () => {
    if (run) out += `+${Buffer.from(run, 'utf16le').swap16().toString('base64').replace(/=+$/, '')}-`;
    run = '';
  };
  for (const ch of text) {
    if (direct.test(ch)) {
      flush();
      out += ch;
    } else run += ch;
  }
  flush();
  return Buffer.from(out, 'ascii');
}
