import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { ErrorCode } from '@mate/contracts';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';
import { BodyErrorMessages } from '../../errors/error.filter';
import { ClientErrorMessages, installClientErrorHandler } from '../client-errors';
import { jsonBodyParser, JsonBodyMessages, MAX_JSON_DEPTH } from '../json-body';
import { NulTextMessages } from '../nul-text';
import { probeService } from './probe-service';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

const SIGN_IN = '/api/probe/sign-in';

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

/**
 * UTF-7 (RFC 2152) as a client declaring `charset=utf-7` sends it: each run of characters outside
 * the directly encoded set is '+', base64 of its UTF-16BE code units, '-'. Brackets and quotes
 * are never direct, so a body's structure is invisible in its bytes.
 */
function utf7(text: string): Buffer {
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

function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
}

/** Issue 7 items 5 and 11: bad input answered 500, an empty body, or silently accepted. */
describe('input limits of every service (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;
  let port: number;

  beforeAll(async () => {
    bed = await startServiceTestBed(probeService, { label: 'input_limits' });
    port = Number(new URL(bed.url).port);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const post = (raw: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${bed.url}${SIGN_IN}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw }).then(
      async (res) => ({ status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> }),
    );

  describe('nesting', () => {
    it('answers 3,500 levels of nested JSON (a 7 KB body that overflowed the stack) with a 400', async () => {
      const raw = `{"email":"a@b.co","address":${'['.repeat(3500)}${']'.repeat(3500)}}`;
      expect(raw.length).toBeLessThan(7_200);
      expect(await post(raw)).toMatchObject({ status: 400, body: { error: JsonBodyMessages.tooDeep, code: ErrorCode.ValidationFailed } });
    });

    it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}; brackets inside strings do not count`, async () => {
      const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
      const atLimit = await post(`{"email":"a@b.co","x":${nested(MAX_JSON_DEPTH - 1)}}`);
      expect(atLimit).toMatchObject({ status: 400, body: { error: 'Unknown field: x' } });
      const over = await post(`{"email":"a@b.co","x":${nested(MAX_JSON_DEPTH)}}`);
      expect(over).toMatchObject({ status: 400, body: { error: JsonBodyMessages.tooDeep } });
      const inString = await post(JSON.stringify({ email: 'a@b.co', address: { city: '[{'.repeat(40) } }));
      expect(inString.status).toBe(200);
    });
  });

  /**
   * Review of issue 7: body-parser decodes any utf-* charset, but the depth scan reads UTF-8 bytes.
   * In UTF-7 the brackets are base64; in UTF-16 '∀' (U+2200) holds a 0x22 byte the scan takes for
   * a quote, so the brackets after it looked like a string. Thousands of levels then reached the
   * recursive prototype-key check, which overflowed the stack outside body-parser's try/catch:
   * one unauthenticated request ended the process.
   */
  describe('charsets other than UTF-8', () => {
    const deep = (levels: number, prefix = '') => `{"email":"${prefix}a@b.co","address":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
    const utf16WithBom = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

    it.each([
      ['utf-7, brackets base64-encoded', 'utf-7', utf7(deep(8000))],
      ['utf-16le, after a U+2200', 'utf-16le', Buffer.from(deep(8000, '\u2200'), 'utf16le')],
      ['utf-16be, after a U+2200', 'utf-16be', utf16be(deep(8000, '\u2200'))],
      ['utf-16 with a byte order mark', 'UTF-16', utf16WithBom(deep(8000, '\u2200'))],
    ])('%s: a deep body is refused with 415, and the service lives on', async (_what, charset, body) => {
      expect(body.length).toBeLessThan(100_000);
      expect(await post(body, { 'content-type': `application/json; charset=${charset}` })).toMatchObject({
        status: 415,
        type: expect.stringContaining('application/json'),
        body: { error: BodyErrorMessages.charset, code: ErrorCode.ValidationFailed },
      });
      expect((await bed.call('GET', '/health/live')).status).toBe(200);
    });

    it('refuses even a shallow, valid body in another utf-* charset (the scan cannot read it)', async () => {
      for (const [charset, body] of [
        ['utf-7', utf7('{"email":"a@b.co"}')],
        ['utf-16le', Buffer.from('{"email":"a@b.co"}', 'utf16le')],
        ['utf-32', Buffer.from('{}')],
      ] as const) {
        expect(await post(body, { 'content-type': `application/json; charset=${charset}` })).toMatchObject({ status: 415, body: { error: BodyErrorMessages.charset } });
      }
    });

    it('reads UTF-8, however its name is written, and a body without a charset, as before', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
        expect(await post('{"email":"not an address"}', { 'content-type': type })).toMatchObject({ status: 400, body: { error: 'Please enter a valid email address' } });
      }
    });
  });

  it('answers 400 { error } when anything after body-parser throws, instead of an uncaught exception', async () => {
    // body-parser calls the parser's continuation outside its try/catch. A body whose reading
    // throws there (here a getter, standing in for any future check) must not end the process.
    const app = express();
    app.use((req, _res, next) => {
      const overflow = () => {
        throw new RangeError('Maximum call stack size exceeded');
      };
      Object.defineProperty(req, 'body', { configurable: true, get: overflow, set: () => undefined });
      next();
    });
    app.use(jsonBodyParser());
    app.post('/', (_req, res) => res.json({ reached: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@b.co"}' });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: { error: BodyErrorMessages.unreadable, code: ErrorCode.ValidationFailed } });
      // And the server is still there to answer the next one.
      expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(400);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('answers a lone UTF-16 surrogate in an email (URIError in validator) with a 400', async () => {
    for (const email of ['"\\ud800@example.com"', '"a\\udfff@example.com"', '"\\ud800"']) {
      expect(await post(`{"email":${email}}`)).toMatchObject({ status: 400, body: { error: JsonBodyMessages.invalidText } });
    }
    // A pair is text (an emoji), and reaches validation as usual.
    expect(await post('{"email":"\\ud83d\\ude00@example.com"}')).toMatchObject({ status: 400, body: { error: 'Please enter a valid email address' } });
  });

  describe('Content-Encoding', () => {
    it.each(['gzip', 'br', 'deflate', 'x-unknown'])('answers %s on an uncompressed body with 415 and a JSON error', async (encoding) => {
      expect(await post('{"email":"a@b.co"}', { 'content-encoding': encoding })).toMatchObject({
        status: 415,
        type: expect.stringContaining('application/json'),
        body: { error: BodyErrorMessages.encoding },
      });
    });

    it('refuses compressed bodies too (identity only: no client compresses requests)', async () => {
      const body = '{"email":"a@b.co"}';
      expect((await post(gzipSync(body), { 'content-encoding': 'gzip' })).status).toBe(415);
      expect((await post(brotliCompressSync(body), { 'content-encoding': 'br' })).status).toBe(415);
      expect((await post(body, { 'content-encoding': 'identity' })).status).toBe(200);
    });
  });

  describe('prototype keys are unknown fields, never accepted silently', () => {
    it.each([
      ['{"email":"a@b.co","__proto__":{"admin":true}}', 'Unknown field: __proto__'],
      ['{"email":"a@b.co","constructor":{"prototype":{"admin":true}}}', 'Unknown field: constructor'],
      ['{"email":"a@b.co","address":{"city":"x","prototype":1}}', 'Unknown field: address.prototype'],
      ['{"email":"a@b.co","address":{"\\u005f_proto__":{}}}', 'Unknown field: address.__proto__'],
      ['[{"__proto__":1}]', 'Unknown field: [0].__proto__'],
    ])('%s', async (raw, error) => {
      expect(await post(raw)).toMatchObject({ status: 400, body: { error, code: ErrorCode.ValidationFailed } });
    });
  });

  /**
   * Issue 24 item 3: a NUL reached PostgreSQL, which refuses it in text and jsonb, and came back
   * as a 5xx with an error-level log. The probe's notes routes put path, query and body text
   * straight into a query, as a search or a stored note does.
   */
  describe('NUL characters (U+0000) are a 400 before any handler', () => {
    const NOTES = '/api/probe/items/abc/notes';
    const addNote = (raw: string) =>
      fetch(`${bed.url}${NOTES}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
      }));

    it('reads text without one as before (the routes reach PostgreSQL)', async () => {
      expect(await bed.call('GET', `${NOTES}?q=caf%C3%A9`)).toMatchObject({ status: 200, body: { id: 'abc', q: 'café' } });
      expect(await addNote('{"text":"hello","tags":["a"]}')).toMatchObject({ status: 200, body: { id: 'abc', note: { text: 'hello', tags: ['a'] } } });
      // A literal "%00" (sent as %2500) and an escaped backslash before "u0000" are text, not NUL.
      expect(await bed.call('GET', `${NOTES}?q=%2500`)).toMatchObject({ status: 200, body: { q: '%00' } });
      expect(await addNote('{"text":"\\\\u0000"}')).toMatchObject({ status: 200, body: { note: { text: '\\u0000' } } });
    });

    it.each([
      ['a field', '{"text":"a\\u0000b"}', NulTextMessages.bodyField('text')],
      ['a field of a nested object', '{"text":"x","address":{"city":"\\u0000"}}', NulTextMessages.bodyField('address.city')],
      ['an item of an array', '{"text":"x","tags":["ok","\\u0000"]}', NulTextMessages.bodyField('tags[1]')],
      ['a key', '{"text":"x","ta\\u0000gs":[]}', NulTextMessages.bodyFieldName],
      ['a key of a nested object', '{"text":"x","address":{"\\u0000":"y"}}', NulTextMessages.bodyFieldName],
    ])('in the JSON body: %s', async (_where, raw, error) => {
      expect(await addNote(raw)).toMatchObject({ status: 400, body: { error, code: ErrorCode.ValidationFailed } });
    });

    it.each([
      ['a query parameter', `${NOTES}?q=a%00b`, NulTextMessages.queryParameter('q')],
      ['a repeated query parameter', `${NOTES}?q=a&q=%00`, NulTextMessages.queryParameter('q')],
      ['a query parameter name', `${NOTES}?q%00=a`, NulTextMessages.queryParameterName],
      ['a path parameter', '/api/probe/items/a%00b/notes', NulTextMessages.path],
      ['a path parameter of a POST', '/api/probe/items/%00/notes', NulTextMessages.path],
      ['a path no route has', '/api/nowhere/%00', NulTextMessages.path],
    ])('in the URL: %s', async (_where, url, error) => {
      const method = url.startsWith('/api/probe/items/%00') ? 'POST' : 'GET';
      expect(await bed.call(method, url, method === 'POST' ? { body: { text: 'x' } } : {})).toMatchObject({
        status: 400,
        body: { error, code: ErrorCode.ValidationFailed },
      });
    });
  });

  it('answers an undecodable path parameter with a 400, not a 500', async () => {
    for (const id of ['%E0%A4%A', '%ED%A0%80', '%']) {
      expect(await bed.call('GET', `/api/probe/items/${id}`)).toMatchObject({ status: 400, body: { error: expect.any(String) } });
    }
  });

  describe("Node's parser refusals carry the JSON error body", () => {
    it.each([
      ['a bad method', 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['Content-Length with Transfer-Encoding', `POST ${SIGN_IN} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      ['a malformed header', 'GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
      ['a request line that is not HTTP', 'hello there\r\n\r\n'],
    ])('%s → 400 {"error":"Bad request"}', async (_what, request) => {
      const answer = parseRaw(await rawExchange(port, request));
      expect(answer.status).toBe(400);
      expect(answer.headers).toContain('content-type: application/json');
      expect(answer.headers).toContain('connection: close');
      expect(answer.body).toEqual({ error: ClientErrorMessages.badRequest, code: ErrorCode.ValidationFailed });
    });

    it('an Expect other than 100-continue → 417 with the JSON body (Node answered it empty)', async () => {
      const answer = parseRaw(await rawExchange(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n'));
      expect(answer).toMatchObject({ status: 417, body: { error: ClientErrorMessages.expectation } });
    });

    it('headers larger than the server allows → 431 with the JSON body', async () => {
      const answer = parseRaw(await rawExchange(port, `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(answer).toMatchObject({ status: 431, body: { error: ClientErrorMessages.headersTooLarge } });
    });

    it('headers that do not arrive in time → 408 with the JSON body', async () => {
      // A server of its own, so the header deadline can be short without touching the service's.
      const server: Server = createServer({ headersTimeout: 200, requestTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => res.end());
      installClientErrorHandler(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const address = server.address() as net.AddressInfo;
        const answer = parseRaw(await rawExchange(address.port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
        expect(answer).toMatchObject({ status: 408, body: { error: ClientErrorMessages.timeout, code: ErrorCode.RequestTimeout } });
      } finally {
        await new Promise((r) => server.close(r));
      }
    });

    it('still serves the next connection normally', async () => {
      expect((await bed.call('GET', '/health/live')).status).toBe(200);
    });
  });
});
