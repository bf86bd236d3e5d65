import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { FuzzClient, isOneOfOurErrors, utf7, type Answer, type FuzzRequest } from '../support/fuzz-client';
import { tokenOf, uniqueEmail, waitForLink } from '../support/mailbox';

/**
 * Issue 7 item 5, acceptance: generated bodies, query strings and headers on every route of the
 * gateway's combined OpenAPI document, signed in as a verified member and signed out. No answer
 * may be a 5xx, and every 4xx carries a JSON body with a string `error`.
 *
 * Each request leaves from its own loopback address (127.0.0.100-199), so the run spends neither
 * the gateway's per-address budget nor auth-service's per-address limits of the other journeys
 * (which come from 127.0.0.1). `E2E_FUZZ_RUNS` sets the generated cases per route (default 40;
 * about 1,500 requests, 10-15 s on two cores). The seed is fixed, so `npm test` sends the same
 * requests every time; `E2E_FUZZ_SEED` explores others (the run prints the seed it used, and a
 * failure prints what fast-check needs to replay it).
 */
const GATEWAY = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:3000';
const MAILDEV = process.env.E2E_MAILDEV_URL ?? 'http://127.0.0.1:1080';
const RUNS = Number(process.env.E2E_FUZZ_RUNS ?? 40);
/** Any fixed number: the same generated requests on every run of `npm test`. */
const DEFAULT_SEED = 20_261_122;
const SEED = process.env.E2E_FUZZ_SEED ? Number(process.env.E2E_FUZZ_SEED) : DEFAULT_SEED;
const PASSWORD = 'a long enough fuzz secret';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Route {
  method: Uppercase<(typeof METHODS)[number]>;
  /** OpenAPI path, `{id}` style. */
  path: string;
}

/** What went wrong, with the request that did it: a failing run says exactly what to replay. */
function check(route: Route, request: FuzzRequest, answer: Answer): void {
  const where = `${request.method} ${request.path} (route ${route.method} ${route.path})`;
  if (answer.status >= 500) {
    throw new Error(`${where} answered ${answer.status}: ${answer.text.slice(0, 300)}\nrequest: ${describeRequest(request)}`);
  }
  if (answer.status >= 400 && !isOneOfOurErrors(answer)) {
    throw new Error(
      `${where} answered ${answer.status} without a JSON { error }: ${answer.contentType} ${answer.text.slice(0, 300)}\nrequest: ${describeRequest(request)}`,
    );
  }
}

function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length} bytes)=${request.body.subarray(0, 200).toString('latin1')}`;
  return `${JSON.stringify(request.headers)}${body}`;
}

// ---------------------------------------------------------------------------------------------
// Generators

const HOSTILE_STRINGS = [
  '\ud800',
  'a\udfff@example.com',
  '\ud800@example.com',
  '\u0000',
  '\u202e',
  '%',
  '%E0%A4%A',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  '😀',
  '',
  ' ',
];
const hostileString = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, 1.5));
const scalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
/** Keys: the DTOs' own field names often, so generated values reach validation and the handlers. */
const FIELD_NAMES = [
  'email',
  'password',
  'newPassword',
  'currentPassword',
  'name',
  'age',
  'token',
  'newEmail',
  'bio',
  'gender',
  'interests',
  'location',
  'city',
  'latitude',
  'longitude',
  'minAge',
  'maxAge',
  'maxDistance',
  'lookingFor',
  'photoId',
  'order',
  'isPrimary',
  'reason',
  'status',
  'role',
  '__proto__',
  'constructor',
  'prototype',
];
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: hostileString });
const { value: jsonValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 4 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
}));

/** Raw JSON texts (a parsed object cannot hold an own `__proto__`, nor 3,500 levels comfortably). */
const rawJson = fc.oneof(
  fc.integer({ min: 1, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `{"email":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`),
  fc.constantFrom(
    '{"__proto__":{"role":"admin"}}',
    '{"constructor":{"prototype":{"role":"admin"}}}',
    '{"email":"\\ud800@example.com","password":"a long enough secret"}',
    '{"email":',
    '{"email":"a@b.co",}',
    'null',
    '"text"',
    '12',
    '[]',
    '{}',
    '\u0000',
    '{"a":1}{"b":2}',
  ),
  jsonValue.map((v) => JSON.stringify(v) ?? 'null'),
);

/** A multipart body as an upload sends it, with a generated part (the photo routes' own parser). */
const multipart = fc
  .record({
    name: fc.constantFrom('photo', 'file', 'photos', '__proto__', ''),
    filename: fc.constantFrom('a.png', 'a.jpg', '../../a.png', 'a', '\u0000.png', 'x'.repeat(300)),
    type: fc.constantFrom('image/png', 'image/jpeg', 'text/plain', 'image/svg+xml', ''),
    data: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('\x89PNG\r\n\x1a\n\u0000\u0000\u0000\rIHDR')),
    closed: fc.boolean(),
  })
  .map(
    (p) =>
      `--fuzz\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n${p.data}\r\n${p.closed ? '--fuzz--\r\n' : ''}`,
  );

/** Headers a client may add: spoofed forwarding and credential, odd ids, conditionals, Expect. */
const extraHeader = fc.tuple(
  fc.constantFrom('x-forwarded-for', 'x-mate-internal', 'x-request-id', 'origin', 'range', 'if-none-match', 'cookie', 'expect', 'x-http-method-override', 'forwarded'),
  fc.oneof(
    fc.constantFrom('9.9.9.9', 'dev-only-internal-token-change-me', 'bytes=0-1', '*', 'null', '100-continue', 'teapot', 'DELETE', 'for=1.2.3.4'),
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
  ),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=utf-16le',
  'application/json; charset=utf-7',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'image/png',
  'application/octet-stream',
];
const ENCODINGS = ['gzip', 'br', 'deflate', 'identity', 'x-zip', 'gzip, br', 'compress'];
const ACCEPTS = ['*/*', 'application/json', 'text/html', 'application/xml', 'image/*', ''];

interface Variant {
  signedIn: boolean;
  authorization: string | undefined;
  segments: string[];
  query: [string, string][];
  contentType: string | undefined;
  encoding: string | undefined;
  compress: boolean;
  accept: string | undefined;
  body: string | undefined;
  chunked: boolean;
  extra: [string, string][];
  /** A multipart body goes with its content type (half the time), so it reaches the upload parser. */
  typedAsUpload: boolean;
}

const segment = fc.oneof(
  fc.uuid(),
  fc.constantFrom('me', 'my', '0', '-1', '%', '%E0%A4%A', '%ED%A0%80', '..', '%2e%2e', '%2F', 'a'.repeat(300), '%00', '__proto__'),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const variant: fc.Arbitrary<Variant> = fc.record({
  signedIn: fc.boolean(),
  authorization: fc.option(fc.constantFrom('Bearer', 'Bearer ', 'Bearer garbage', 'Basic YTpi', 'bearer x.y.z', `Bearer ${'a'.repeat(3000)}`, 'Bearer eyJhbGciOiJub25lIn0.e30.'), {
    freq: 3,
    nil: undefined,
  }),
  segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
  query: fc.array(fc.tuple(fc.oneof(fc.constantFrom('q', 't', 'page', 'limit', 'minAge', '__proto__', 'a[b]'), fc.string({ maxLength: 10 })), hostileString), { maxLength: 4 }),
  contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4, nil: undefined }),
  encoding: fc.option(fc.constantFrom(...ENCODINGS), { freq: 2, nil: undefined }),
  compress: fc.boolean(),
  accept: fc.option(fc.constantFrom(...ACCEPTS), { nil: undefined }),
  body: fc.option(fc.oneof({ weight: 4, arbitrary: rawJson }, { weight: 1, arbitrary: multipart }), { freq: 6, nil: undefined }),
  chunked: fc.boolean(),
  extra: fc.array(extraHeader, { maxLength: 1 }),
  typedAsUpload: fc.boolean(),
});

/** Routes a member's token cannot pass at the gateway (admins only): NUL cases there check no 5xx only. */
const ADMIN_ONLY = /^\/(api\/)?admin(\/|$)/;
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A NUL in each place of each route: every path parameter in turn (`%00` inside an id, the others
 * a well-formed one), the query string (`%00` in a value and in a name), and for routes that take
 * a body a raw `\u0000` escape in a JSON value and in a JSON key.
 */
function nulCases(routes: Route[]): { route: Route; request: FuzzRequest }[] {
  const json = { 'content-type': 'application/json' };
  return routes.flatMap((route) => {
    const params = route.path.match(/\{[^}]+\}/g) ?? [];
    const pathWith = (nulAt: number) => {
      let i = 0;
      return route.path.replace(/\{[^}]+\}/g, () => (i++ === nulAt ? `${SOME_ID.slice(0, 8)}%00${SOME_ID.slice(8)}` : SOME_ID));
    };
    const plain = pathWith(-1);
    const requests: FuzzRequest[] = [
      ...params.map((_, at) => ({ method: route.method, path: pathWith(at), headers: {} })),
      { method: route.method, path: `${plain}?q=ann%00&limit=5`, headers: {} },
      { method: route.method, path: `${plain}?search%00=1`, headers: {} },
    ];
    if (route.method !== 'GET') {
      requests.push(
        { method: route.method, path: plain, headers: json, body: Buffer.from('{"reason":"spam\\u0000","email":"a\\u0000@b.co","status":"reviewed"}') },
        { method: route.method, path: plain, headers: json, body: Buffer.from('{"resolution":{"note":["ok","\\u0000"]},"k\\u0000":1}') },
      );
    }
    return requests.map((request) => ({ route, request }));
  });
}

// ---------------------------------------------------------------------------------------------

describe('every route survives generated input (fast-check)', () => {
  const client = new FuzzClient(GATEWAY);
  let routes: Route[] = [];
  let email = '';
  let token = '';

  /** A verified member's session; signed in again when a fuzzed call ended it (logout, "log out other devices"). */
  async function memberToken(): Promise<string> {
    if (token) return token;
    const login = await client.json('POST', '/api/auth/login', { email, password: PASSWORD });
    if (login.status !== 200) throw new Error(`the fuzz member could not sign in again: ${login.status} ${login.text}`);
    token = (JSON.parse(login.text) as { token: string }).token;
    return token;
  }

  beforeAll(async () => {
    await client.ready();
    const doc = await client.json('GET', '/api/docs/openapi.json');
    expect(doc.status).toBe(200);
    const paths = (JSON.parse(doc.text) as { paths: Record<string, Partial<Record<(typeof METHODS)[number], unknown>>> }).paths;
    routes = Object.entries(paths).flatMap(([path, ops]) =>
      METHODS.filter((m) => ops[m]).map((m) => ({ method: m.toUpperCase() as Route['method'], path })),
    );

    email = uniqueEmail('fuzz');
    const registered = await client.json('POST', '/api/auth/register', { email, password: PASSWORD, name: 'Fuzz', age: 30 });
    expect(registered.status).toBe(201);
    const link = await waitForLink(MAILDEV, email, '/verify-email');
    expect((await client.json('POST', '/api/verification/verify', { token: tokenOf(link) })).status).toBe(200);
    await memberToken();
  }, 60_000);

  it('lists the routes of every service from the combined document', () => {
    const prefixes = new Set(routes.map((r) => r.path.split('/').slice(0, 3).join('/')));
    expect([...prefixes]).toEqual(expect.arrayContaining(['/api/auth', '/api/profile']));
    expect(routes.length).toBeGreaterThan(20);
  });

  it("answers the issue's attacks on every route that takes a body with a 4xx and { error }", async () => {
    // Deep bodies in charsets the depth scan cannot read (UTF-7 hides the brackets in base64; in
    // UTF-16 U+2200 carries a quote byte): each ended the service's process before it refused them.
    const deepBehind = (prefix: string) => `{"email":"${prefix}a@b.co","a":${'['.repeat(8000)}${']'.repeat(8000)}}`;
    const json = (charset: string) => ({ 'content-type': `application/json; charset=${charset}` });
    const attacks: Array<[string, Partial<FuzzRequest>]> = [
      ['8,000 levels in UTF-7', { body: utf7(deepBehind('')), headers: json('utf-7') }],
      ['8,000 levels in UTF-16LE after a U+2200', { body: Buffer.from(deepBehind('\u2200'), 'utf16le'), headers: json('utf-16le') }],
      ['8,000 levels in UTF-16BE after a U+2200', { body: Buffer.from(deepBehind('\u2200'), 'utf16le').swap16(), headers: json('utf-16be') }],
      ['3,500 levels of nesting', { body: Buffer.from(`${'['.repeat(3500)}${']'.repeat(3500)}`) }],
      ['a lone surrogate in the email', { body: Buffer.from('{"email":"\\ud800@example.com","password":"a long enough secret"}') }],
      ['gzip on a plain body', { body: Buffer.from('{"email":"a@b.co"}'), headers: { 'content-encoding': 'gzip' } }],
      ['br on a plain body', { body: Buffer.from('{"email":"a@b.co"}'), headers: { 'content-encoding': 'br' } }],
      ['a __proto__ key', { body: Buffer.from('{"__proto__":{"role":"admin"},"email":"a@b.co"}') }],
    ];
    const withBodies = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
    expect(withBodies.length).toBeGreaterThan(5);
    for (const route of withBodies) {
      for (const signedIn of [false, true]) {
        for (const [, attack] of attacks) {
          const request: FuzzRequest = {
            method: route.method,
            path: route.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
            headers: {
              'content-type': 'application/json',
              ...(signedIn ? { authorization: `Bearer ${await memberToken()}` } : {}),
              ...attack.headers,
            },
            body: attack.body,
          };
          const answer = await client.send(request);
          if (signedIn && answer.status === 401) token = '';
          check(route, request, answer);
          // Refused (a signed-out caller may get 401 first): never accepted, never a 5xx.
          const where = `${route.method} ${route.path} ${signedIn ? 'signed in' : 'signed out'}: ${describeRequest(request)}`;
          expect({ where, refused: answer.status >= 400 }).toEqual({ where, refused: true });
        }
      }
    }
  }, 120_000);

  /**
   * Issue 24 item 3: a NUL reached PostgreSQL and was answered 503. Every route, once per place a
   * NUL can ride in (each path parameter, the query string, a JSON body's value and key), signed
   * in and out: never a 5xx. Where the gateway forwards (a member's own routes, signed in), the
   * owning service must be the one that refused, with the kit's 400 naming the NUL.
   */
  it('answers a NUL in every route\'s path parameters, query string and JSON body with a 4xx, never a 5xx', async () => {
    const cases = nulCases(routes);
    expect(cases.length).toBeGreaterThan(routes.length * 2);
    const refusedByService: string[] = [];
    const notReached: string[] = [];
    for (const { route, request: nul } of cases) {
      for (const signedIn of [false, true]) {
        const send = async () =>
          client.send({ ...nul, headers: { ...nul.headers, ...(signedIn ? { authorization: `Bearer ${await memberToken()}` } : {}) } });
        let answer = await send();
        if (signedIn && answer.status === 401) {
          token = '';
          answer = await send();
        }
        check(route, nul, answer);
        if (!signedIn || ADMIN_ONLY.test(route.path)) continue;
        const where = `${nul.method} ${nul.path} ${describeRequest(nul)}`;
        if (answer.status === 400 && /NUL characters/.test(answer.text)) refusedByService.push(where);
        else notReached.push(`${where} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      }
    }
    expect(notReached).toEqual([]);
    expect(refusedByService.length).toBeGreaterThan(routes.length);
  }, 120_000);

  it('never answers a 5xx, and every 4xx is JSON with an error, for generated bodies, query strings and headers', async () => {
    const started = Date.now();
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const [index, route] of routes.entries()) {
      await fc.assert(
        fc.asyncProperty(variant, async (v) => {
          let param = 0;
          const path = route.path.replace(/\{[^}]+\}/g, () => v.segments[param++ % v.segments.length]);
          const query = v.query.length ? `?${new URLSearchParams(v.query).toString()}` : '';
          const headers: Record<string, string> = Object.fromEntries(v.extra);
          if (v.signedIn) headers.authorization = `Bearer ${await memberToken()}`;
          else if (v.authorization !== undefined) headers.authorization = v.authorization;
          if (v.contentType !== undefined) headers['content-type'] = v.contentType;
          if (v.body?.startsWith('--fuzz') && v.typedAsUpload) headers['content-type'] = 'multipart/form-data; boundary=fuzz';
          if (v.accept !== undefined) headers.accept = v.accept;
          let body = v.body === undefined || (route.method === 'GET' && !v.chunked) ? undefined : Buffer.from(v.body, 'utf8');
          if (body && v.encoding !== undefined) {
            headers['content-encoding'] = v.encoding;
            if (v.compress && v.encoding === 'gzip') body = gzipSync(body);
          }
          const request: FuzzRequest = { method: route.method, path: `${path}${query}`, headers, body, chunked: v.chunked };
          const answer = await client.send(request);
          sent++;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (v.signedIn && answer.status === 401) token = '';
          check(route, request, answer);
        }),
        // One seed per route, so routes do not all get the same sequence of variants.
        { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
      );
    }
    const ms = Date.now() - started;
    process.stdout.write(
      `fuzz (seed ${SEED}, E2E_FUZZ_SEED to change): ${routes.length} routes, ${sent} requests in ${(ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    expect(sent).toBeGreaterThanOrEqual(routes.length * RUNS);
  }, 180_000);
});
