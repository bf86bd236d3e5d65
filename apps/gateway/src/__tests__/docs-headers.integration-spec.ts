import { DOCS_JSON_PATH, DOCS_PATH } from '../docs/api-docs';
import { startEdgeGateway, type EdgeGateway } from './edge-test-kit';

/**
 * Issue 24 item 9: Swagger UI at /api/docs had no Content-Security-Policy and no frame protection,
 * so any site could frame it. The page, each file it loads and its JSON document now carry the
 * web apps' security headers, with a policy that allows no inline code (the page has none).
 */
const JWT_SECRET = 'gateway-docs-headers-secret-0123456789';

describe('gateway: the API docs page, its assets and its document carry the security headers', () => {
  let edge: EdgeGateway;

  beforeAll(async () => {
    edge = await startEdgeGateway('gateway-docs-headers', JWT_SECRET);
  });

  afterAll(async () => {
    await edge?.close();
  });

  const get = async (path: string) => {
    const res = await fetch(`${edge.url}${path}`);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  const directives = (csp: string | null) =>
    new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));

  const expectSecurityHeaders = (headers: Headers, where: string) => {
    const csp = directives(headers.get('content-security-policy'));
    expect({ where, frameAncestors: csp.get('frame-ancestors') }).toEqual({ where, frameAncestors: ["'none'"] });
    expect({ where, defaultSrc: csp.get('default-src') }).toEqual({ where, defaultSrc: ["'none'"] });
    expect({ where, scriptSrc: csp.get('script-src') }).toEqual({ where, scriptSrc: ["'self'"] });
    // 'self' and hashes only: no 'unsafe-inline'.
    expect({ where, styleSrc: csp.get('style-src')?.every((v) => v === "'self'" || /^'sha256-[A-Za-z0-9+/]+=*'$/.test(v)) }).toEqual({ where, styleSrc: true });
    expect({ where, baseUri: csp.get('base-uri') }).toEqual({ where, baseUri: ["'none'"] });
    expect({ where, frame: headers.get('x-frame-options') }).toEqual({ where, frame: 'DENY' });
    expect({ where, nosniff: headers.get('x-content-type-options') }).toEqual({ where, nosniff: 'nosniff' });
    expect({ where, referrer: headers.get('referrer-policy') }).toEqual({ where, referrer: 'no-referrer' });
    expect({ where, opener: headers.get('cross-origin-opener-policy') }).toEqual({ where, opener: 'same-origin' });
  };

  /** The files a page loads: every `src` and `href` of its markup. */
  const assetsOf = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

  it.each([DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/index.html`])('%s: the page has the headers and no inline code the policy would block', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectSecurityHeaders(page.headers, path);
    // Every script is a file of this origin, and there is no inline style of any kind.
    expect(page.text.match(/<script\b[^>]*>/g)?.every((tag) => /\ssrc="\/api\/docs\/[^"]+"/.test(tag))).toBe(true);
    expect(page.text).not.toMatch(/<script\b[^>]*>[^<\s]/);
    expect(page.text).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  it('every file the page loads is served from here, with the headers, as its declared type', async () => {
    const page = await get(DOCS_PATH);
    const assets = assetsOf(page.text);
    expect(assets).toEqual(
      expect.arrayContaining([
        `${DOCS_PATH}/swagger-ui.css`,
        `${DOCS_PATH}/mate-docs.css`,
        `${DOCS_PATH}/swagger-ui-bundle.js`,
        `${DOCS_PATH}/swagger-ui-standalone-preset.js`,
        `${DOCS_PATH}/swagger-ui-init.js`,
      ]),
    );
    for (const asset of assets) {
      expect(asset.startsWith(`${DOCS_PATH}/`)).toBe(true);
      const file = await get(asset);
      expect({ asset, status: file.status }).toEqual({ asset, status: 200 });
      const type = asset.endsWith('.js') ? /javascript/ : asset.endsWith('.css') ? /^text\/css/ : /^image\/png/;
      expect({ asset, type: file.headers.get('content-type') }).toEqual({ asset, type: expect.stringMatching(type) });
      expectSecurityHeaders(file.headers, asset);
    }
    // The page starts Swagger UI with the combined document, and asks no other origin to validate it.
    const init = await get(`${DOCS_PATH}/swagger-ui-init.js`);
    expect(init.text).toContain('"openapi"');
    expect(init.text).toContain('"validatorUrl": null');
  });

  it('serves the JSON document with the headers', async () => {
    const doc = await get(DOCS_JSON_PATH);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(doc.text)).toMatchObject({ openapi: expect.any(String), paths: expect.any(Object) });
    expectSecurityHeaders(doc.headers, DOCS_JSON_PATH);
  });

  it('keeps the headers off the rest of the API (a proxied answer is left as its service wrote it)', async () => {
    const res = await fetch(`${edge.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});
