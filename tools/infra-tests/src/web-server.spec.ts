import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Server as SocketServer } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { rootPath } from './lib/workspace';

const SCRIPT = rootPath('tools/web-server/server.mjs');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Starts the web server on a free port and resolves once it prints its address. */
function start(dir: string, env: Record<string, string> = {}): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, dir], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), output: () => out });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the web server exited with ${code}: ${out}`)));
  });
}

function stop(s: Started | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.on('exit', () => resolve());
    s.child.kill('SIGTERM');
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (still compressed when Content-Encoding says so), as UTF-8. */
  body: string;
  raw: Buffer;
}

/** A raw request: the path is sent exactly as given (no URL normalisation). */
function request(
  port: number,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      // A connection per request: no pooled keep-alive socket outlives a server a test stops.
      { host: '127.0.0.1', port, path: rawPath, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('tools/web-server/server.mjs', () => {
  let tmp: string;
  let dist: string;
  let server: Started;
  // Text files of 1 KB or more get `.br` and `.gz` siblings at build time (tools/vite/build-plugins.ts).
  const INDEX = `<!doctype html><title>Mate</title><script type="module" src="/assets/index-AbCd1234.js"></script><!--${' Mate'.repeat(220)} -->`;
  const SCRIPT_JS = 'console.log("a hashed chunk");\n'.repeat(60);
  const SERVICE_WORKER = 'self.addEventListener("fetch", () => {});\n'.repeat(40);
  const MANIFEST = JSON.stringify({ name: 'Mate', short_name: 'Mate', display: 'standalone', description: 'Mate '.repeat(220) });
  const SECRET = 'top-secret-outside-the-root';
  const SOURCE_MAP = '{"version":3,"sources":["../../src/auth/AuthContext.tsx"],"mappings":"AAAA"}';
  /** Writes a file and, as the build does, its brotli and gzip copies beside it. */
  const writePrecompressed = (file: string, text: string) => {
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'web-server-'));
    dist = path.join(tmp, 'dist');
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.mkdirSync(path.join(dist, 'docs'));
    fs.mkdirSync(path.join(dist, '.well-known'));
    writePrecompressed(path.join(dist, 'index.html'), INDEX);
    writePrecompressed(path.join(dist, 'assets', 'index-AbCd1234.js'), SCRIPT_JS);
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbCd1234.js.map'), SOURCE_MAP);
    fs.writeFileSync(path.join(dist, 'assets', 'index-Zx9_8-7q.css'), 'body{}');
    fs.writeFileSync(path.join(dist, 'assets', 'logo.svg'), '<svg/>');
    fs.writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
    writePrecompressed(path.join(dist, 'manifest.webmanifest'), MANIFEST);
    writePrecompressed(path.join(dist, 'sw.js'), SERVICE_WORKER);
    fs.writeFileSync(path.join(dist, 'apple-touch-icon.png'), Buffer.from([137, 80, 78, 71]));
    fs.writeFileSync(path.join(dist, 'docs', 'index.html'), '<p>docs</p>');
    fs.writeFileSync(path.join(dist, '.well-known', 'assetlinks.json'), '[]');
    fs.writeFileSync(path.join(dist, '.env'), 'SECRET=1');
    fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
    fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dist, 'linked.txt'));
    server = await start(dist);
  });

  afterAll(async () => {
    await stop(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('answers /health with 200', async () => {
    const r = await request(server.port, '/health');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ status: 'ok' });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('serves index.html at / with a revalidating cache policy', async () => {
    const r = await request(server.port, '/');
    expect(r.status).toBe(200);
    expect(r.body).toBe(INDEX);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-length']).toBe(String(INDEX.length));
  });

  it('falls back to index.html for client-side routes', async () => {
    for (const route of ['/matches/42', '/profile/edit?tab=photos', '/chat/']) {
      const r = await request(server.port, route);
      expect({ route, status: r.status, body: r.body, type: r.headers['content-type'] }).toEqual({
        route,
        status: 200,
        body: INDEX,
        type: 'text/html; charset=utf-8',
      });
    }
  });

  it('serves a folder index.html', async () => {
    expect((await request(server.port, '/docs/')).body).toBe('<p>docs</p>');
  });

  it('sends correct content types', async () => {
    const cases: Array<[string, string]> = [
      ['/assets/index-AbCd1234.js', 'text/javascript; charset=utf-8'],
      ['/assets/index-Zx9_8-7q.css', 'text/css; charset=utf-8'],
      ['/assets/logo.svg', 'image/svg+xml; charset=utf-8'],
      ['/favicon.ico', 'image/x-icon'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8'],
      ['/sw.js', 'text/javascript; charset=utf-8'],
      ['/apple-touch-icon.png', 'image/png'],
      ['/.well-known/assetlinks.json', 'application/json; charset=utf-8'],
    ];
    for (const [file, type] of cases) {
      const r = await request(server.port, file);
      expect({ file, status: r.status, type: r.headers['content-type'] }).toEqual({
        file,
        status: 200,
        type,
      });
    }
  });

  it('caches hashed assets for a year as immutable, everything else revalidates', async () => {
    for (const file of [
      '/assets/index-AbCd1234.js',
      '/assets/index-Zx9_8-7q.css',
      '/assets/index-AbCd1234.js?v=2',
    ]) {
      expect((await request(server.port, file)).headers['cache-control']).toBe(
        'public, max-age=31536000, immutable',
      );
    }
    // A service worker and the manifest too: a new release must reach installed apps at once.
    for (const file of ['/assets/logo.svg', '/robots.txt', '/apple-touch-icon.png', '/', '/matches/1', '/sw.js', '/manifest.webmanifest']) {
      expect({ file, cc: (await request(server.port, file)).headers['cache-control'] }).toEqual({
        file,
        cc: 'no-cache',
      });
    }
  });

  it('answers 304 to a conditional request for an unchanged file', async () => {
    const first = await request(server.port, '/assets/index-AbCd1234.js');
    expect(first.headers.etag).toBeTruthy();
    const again = await request(server.port, '/assets/index-AbCd1234.js', {
      headers: { 'If-None-Match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const since = await request(server.port, '/robots.txt', {
      headers: { 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() },
    });
    expect(since.status).toBe(304);
  });

  it('404s a missing file that has an extension instead of serving HTML for it', async () => {
    const r = await request(server.port, '/assets/index-Missing1.js');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('refuses path traversal, encoded or not, and never leaks a file outside the root', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5c..%5csecret.txt',
      '/%252e%252e/secret.txt',
      '/linked.txt',
      '/%00',
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const attempt of attempts) {
      const r = await request(server.port, attempt);
      expect({ attempt, ok: r.status >= 400 && r.status < 500, leaked: r.body.includes(SECRET) }).toEqual({
        attempt,
        ok: true,
        leaked: false,
      });
    }
  });

  it('hides dotfiles but serves /.well-known', async () => {
    const r = await request(server.port, '/.env');
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('SECRET');
    expect((await request(server.port, '/.well-known/assetlinks.json')).body).toBe('[]');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await request(server.port, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(INDEX.length));
    const post = await request(server.port, '/', { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('exits with an error for a folder without index.html', async () => {
    const empty = fs.mkdtempSync(path.join(tmp, 'empty-'));
    await expect(start(empty)).rejects.toThrow(/no index\.html/);
  });

  it('stops on SIGTERM', async () => {
    const s = await start(dist);
    const code = await new Promise<number | null>((resolve) => {
      s.child.removeAllListeners('exit');
      s.child.on('exit', (c) => resolve(c));
      s.child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });

  describe('precompressed files (issue 26)', () => {
    const CHROME = 'gzip, deflate, br, zstd';
    const decode = (r: Answer) => {
      const encoding = r.headers['content-encoding'];
      if (encoding === 'br') return zlib.brotliDecompressSync(r.raw).toString('utf8');
      if (encoding === 'gzip') return zlib.gunzipSync(r.raw).toString('utf8');
      return r.body;
    };
    const FILES: Array<[string, string]> = [
      ['/assets/index-AbCd1234.js', SCRIPT_JS],
      ['/sw.js', SERVICE_WORKER],
      ['/manifest.webmanifest', MANIFEST],
      ['/index.html', INDEX],
    ];

    it('sends the .br to a client that accepts br, the .gz to one that accepts only gzip, the file itself otherwise', async () => {
      const cases: Array<[string | undefined, string | undefined]> = [
        [CHROME, 'br'],
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['identity', undefined],
        ['br;q=0, gzip;q=0', undefined],
        [undefined, undefined],
      ];
      for (const [file, text] of FILES) {
        const plain = await request(server.port, file);
        for (const [accept, encoding] of cases) {
          const r = await request(server.port, file, { headers: accept ? { 'Accept-Encoding': accept } : {} });
          const expectedLength = encoding
            ? fs.statSync(path.join(dist, `${file}${encoding === 'br' ? '.br' : '.gz'}`)).size
            : Buffer.byteLength(text);
          expect({
            file,
            accept,
            status: r.status,
            encoding: r.headers['content-encoding'],
            length: r.headers['content-length'],
            vary: r.headers.vary,
            type: r.headers['content-type'],
            cache: r.headers['cache-control'],
            decoded: decode(r) === text,
          }).toEqual({
            file,
            accept,
            status: 200,
            encoding,
            length: String(expectedLength),
            vary: expect.stringMatching(/accept-encoding/i),
            type: plain.headers['content-type'],
            cache: plain.headers['cache-control'],
            decoded: true,
          });
        }
      }
    });

    it('serves index.html precompressed at / and through the SPA fallback, never cached without revalidation', async () => {
      for (const route of ['/', '/matches/42', '/profile/edit?tab=photos', '/chat/']) {
        for (const [accept, encoding] of [
          [CHROME, 'br'],
          ['gzip', 'gzip'],
        ]) {
          const r = await request(server.port, route, { headers: { 'Accept-Encoding': accept } });
          expect({
            route,
            status: r.status,
            encoding: r.headers['content-encoding'],
            type: r.headers['content-type'],
            cache: r.headers['cache-control'],
            vary: r.headers.vary,
            index: decode(r) === INDEX,
          }).toEqual({
            route,
            status: 200,
            encoding,
            type: 'text/html; charset=utf-8',
            cache: 'no-cache',
            vary: expect.stringMatching(/accept-encoding/i),
            index: true,
          });
        }
      }
    });

    it('keeps the cache policy of the file it encodes: hashed assets immutable, the service worker and manifest no-cache', async () => {
      const cacheOf = async (file: string) =>
        (await request(server.port, file, { headers: { 'Accept-Encoding': CHROME } })).headers['cache-control'];
      expect(await cacheOf('/assets/index-AbCd1234.js')).toBe('public, max-age=31536000, immutable');
      expect(await cacheOf('/sw.js')).toBe('no-cache');
      expect(await cacheOf('/manifest.webmanifest')).toBe('no-cache');
    });

    it('sends a file without compressed copies (under 1 KB, or not text) as it is', async () => {
      for (const file of ['/assets/index-Zx9_8-7q.css', '/apple-touch-icon.png']) {
        const r = await request(server.port, file, { headers: { 'Accept-Encoding': CHROME } });
        expect({ file, status: r.status, encoding: r.headers['content-encoding'] }).toEqual({
          file,
          status: 200,
          encoding: undefined,
        });
      }
    });

    it('validates each encoding with its own ETag (304) and answers HEAD with the compressed length', async () => {
      const br = await request(server.port, '/assets/index-AbCd1234.js', { headers: { 'Accept-Encoding': 'br' } });
      const plain = await request(server.port, '/assets/index-AbCd1234.js');
      expect(br.headers.etag).toBeTruthy();
      expect(br.headers.etag).not.toBe(plain.headers.etag);
      const again = await request(server.port, '/assets/index-AbCd1234.js', {
        headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      const head = await request(server.port, '/', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.headers['content-length']).toBe(String(fs.statSync(path.join(dist, 'index.html.br')).size));
    });
  });

  describe('security headers (issue 7 item 9)', () => {
    const LOCAL_CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'none'; " +
      "img-src 'self' data: blob: http://localhost:3000; " +
      "connect-src 'self' http://localhost:3000 ws://localhost:3000; media-src 'self' blob:; font-src 'self'; " +
      "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
    const directive = (csp: string | string[] | undefined, name: string) =>
      String(csp ?? '')
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.split(' ')[0] === name);

    /** Starts the web server on a copy of the dist with the given `.web-config.json` (or none). */
    async function startWith(webConfig: unknown, env: Record<string, string> = {}): Promise<Started> {
      const copy = fs.mkdtempSync(path.join(tmp, 'dist-'));
      fs.cpSync(dist, copy, { recursive: true });
      if (webConfig !== undefined) fs.writeFileSync(path.join(copy, '.web-config.json'), JSON.stringify(webConfig));
      return start(copy, env);
    }

    it('sends CSP, Permissions-Policy, nosniff, Referrer-Policy and X-Frame-Options on everything it serves', async () => {
      for (const file of ['/', '/matches/42', '/assets/index-AbCd1234.js', '/favicon.ico', '/nope.js', '/health']) {
        const r = await request(server.port, file, { headers: { Host: 'localhost:4200' } });
        expect({
          file,
          csp: r.headers['content-security-policy'],
          permissions: r.headers['permissions-policy'],
          nosniff: r.headers['x-content-type-options'],
          referrer: r.headers['referrer-policy'],
          frames: r.headers['x-frame-options'],
        }).toEqual({
          file,
          csp: LOCAL_CSP,
          permissions: 'camera=(self), microphone=(self), geolocation=(self), payment=(), usb=()',
          nosniff: 'nosniff',
          referrer: 'strict-origin-when-cross-origin',
          frames: 'DENY',
        });
      }
    });

    it('allows no inline or eval script, no inline style sheet, no plugin, no framing, no <base>', async () => {
      const csp = (await request(server.port, '/')).headers['content-security-policy'];
      expect(directive(csp, 'script-src')).toBe("script-src 'self'");
      expect(directive(csp, 'style-src')).toBe("style-src 'self'");
      expect(directive(csp, 'object-src')).toBe("object-src 'none'");
      expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(directive(csp, 'base-uri')).toBe("base-uri 'none'");
      expect(csp).not.toMatch(/unsafe-eval|\*/);
    });

    it('names the API origin the app was built for (.web-config.json), whatever the Host, and never serves that file', async () => {
      const built = await startWith({ apiOrigin: 'https://api.mate.example' });
      try {
        for (const host of ['app.mate.example', 'localhost:4200']) {
          const csp = (await request(built.port, '/', { headers: { Host: host } })).headers['content-security-policy'];
          expect({ host, img: directive(csp, 'img-src'), connect: directive(csp, 'connect-src') }).toEqual({
            host,
            img: "img-src 'self' data: blob: https://api.mate.example",
            connect: "connect-src 'self' https://api.mate.example wss://api.mate.example",
          });
        }
        for (const file of ['/.web-config.json', '/%2Eweb-config.json', '/assets/../.web-config.json']) {
          const r = await request(built.port, file);
          expect({ file, refused: r.status >= 400 && r.status < 500, leaked: r.body.includes('apiOrigin') }).toEqual({
            file,
            refused: true,
            leaked: false,
          });
        }
      } finally {
        await stop(built);
      }
    });

    it("allows the inline scripts the build listed (.web-config.json scriptHashes) by their hash, and refuses to start on anything else there", async () => {
      const hash = "'sha256-sywRdpXutc+olqD1G3Kh2Vz+lsuAkc7X7f4q0BQoDzU='";
      const built = await startWith({ apiOrigin: null, scriptHashes: [hash] });
      try {
        const csp = (await request(built.port, '/')).headers['content-security-policy'];
        expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${hash}`);
        expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      } finally {
        await stop(built);
      }
      for (const scriptHashes of [["'unsafe-inline'"], [`${hash}; object-src *`], ['sha256-sywRdpXutc+olqD1G3Kh2Vz+lsuAkc7X7f4q0BQoDzU='], 'x']) {
        await expect(startWith({ apiOrigin: null, scriptHashes })).rejects.toThrow(/scriptHashes entry that is not/);
      }
    });

    it('without a configured API, allows only its own origin, and never copies the Host header into the policy', async () => {
      for (const host of ['app.mate.example', 'evil.example', "x; script-src 'unsafe-inline'", 'localhost.evil.example']) {
        const csp = (await request(server.port, '/', { headers: { Host: host } })).headers['content-security-policy'];
        expect({ host, connect: directive(csp, 'connect-src'), img: directive(csp, 'img-src') }).toEqual({
          host,
          connect: "connect-src 'self'",
          img: "img-src 'self' data: blob:",
        });
      }
      // On a developer's machine the app calls the gateway on port 3000 of the same host.
      const local = (await request(server.port, '/', { headers: { Host: '127.0.0.1:4200' } })).headers[
        'content-security-policy'
      ];
      expect(directive(local, 'connect-src')).toBe("connect-src 'self' http://127.0.0.1:3000 ws://127.0.0.1:3000");
    });

    it('takes API_ORIGIN over the build and PHOTO_ORIGINS for a photo CDN, and refuses to start on a malformed origin', async () => {
      const configured = await startWith(
        { apiOrigin: 'http://127.0.0.1:3950' },
        { API_ORIGIN: 'https://api.mate.example/api', PHOTO_ORIGINS: 'https://photos.mate.example' },
      );
      try {
        const csp = (await request(configured.port, '/')).headers['content-security-policy'];
        expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://api.mate.example wss://api.mate.example");
        expect(directive(csp, 'img-src')).toBe(
          "img-src 'self' data: blob: https://api.mate.example https://photos.mate.example",
        );
      } finally {
        await stop(configured);
      }
      await expect(start(dist, { API_ORIGIN: "javascript:alert(1); script-src 'unsafe-inline'" })).rejects.toThrow(
        /not an http\(s\) origin|Invalid URL/,
      );
    });

    it('sends HSTS only when the request came over HTTPS through a trusted proxy, not because a client says so', async () => {
      // The attack: any client can send X-Forwarded-Proto; by default no hop is trusted.
      const claimed = await request(server.port, '/', { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(claimed.headers['strict-transport-security']).toBeUndefined();

      const behindProxy = await start(dist, { TRUST_PROXY: 'loopback' });
      try {
        const https = await request(behindProxy.port, '/', { headers: { 'X-Forwarded-Proto': 'https' } });
        expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const plain = await request(behindProxy.port, '/', { headers: { 'X-Forwarded-Proto': 'http' } });
        expect(plain.headers['strict-transport-security']).toBeUndefined();
        expect((await request(behindProxy.port, '/')).headers['strict-transport-security']).toBeUndefined();
      } finally {
        await stop(behindProxy);
      }

      // The Kubernetes setting (one ingress hop, which the NetworkPolicy makes the only peer).
      const oneHop = await start(dist, { TRUST_PROXY: '1' });
      try {
        const https = await request(oneHop.port, '/', { headers: { 'X-Forwarded-Proto': 'https' } });
        expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      } finally {
        await stop(oneHop);
      }

      const otherProxy = await start(dist, { TRUST_PROXY: '10.0.0.0/8' });
      try {
        const fromLoopback = await request(otherProxy.port, '/', { headers: { 'X-Forwarded-Proto': 'https' } });
        expect(fromLoopback.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await stop(otherProxy);
      }
    });

    it('never serves a source map, even one left in the build', async () => {
      for (const file of [
        '/assets/index-AbCd1234.js.map',
        '/assets/index-AbCd1234.js.map?x=1',
        '/assets/index-AbCd1234.js.MAP',
        '/assets/index-AbCd1234.js%2Emap',
        '/assets/index-AbCd1234.js.ma%70',
        '/assets/index-AbCd1234.js.map/',
        '/assets/index-AbCd1234.js.map%2F',
      ]) {
        const r = await request(server.port, file);
        expect({ file, status: r.status, leaked: r.body.includes('mappings') }).toEqual({
          file,
          status: 404,
          leaked: false,
        });
      }
      const js = await request(server.port, '/assets/index-AbCd1234.js');
      expect(js.status).toBe(200);
      expect(js.headers.sourcemap).toBeUndefined();
      expect(js.headers['x-sourcemap']).toBeUndefined();
    });

    it("builds the web app with hidden source maps (no sourceMappingURL in the bundles)", () => {
      const config = fs.readFileSync(rootPath('apps/web/vite.config.mts'), 'utf8');
      expect(config).toMatch(/sourcemap:\s*'hidden'/);
    });

    it("uses the gateway's local port the web app uses (api-base.ts)", () => {
      const apiBase = fs.readFileSync(rootPath('apps/web/src/app/api-base.ts'), 'utf8');
      const port = /LOCAL_GATEWAY_PORT\s*=\s*(\d+)/.exec(apiBase)?.[1];
      const served = /LOCAL_GATEWAY_PORT\s*=\s*(\d+)/.exec(
        fs.readFileSync(rootPath('tools/web-server/security-headers.mjs'), 'utf8'),
      )?.[1];
      expect(port).toMatch(/^\d+$/);
      expect(served).toBe(port);
    });
  });

  describe('with API_PROXY_URL (same-origin API without an ingress)', () => {
    let upstream: http.Server;
    /** The gateway's socket.io server, as the web app reaches it through /socket.io. */
    let realtime: SocketServer;
    let proxy: Started;
    const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> =
      [];

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
          if (req.url?.startsWith('/api/busy')) {
            res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
            res.end(JSON.stringify({ error: 'busy' }));
            return;
          }
          res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'gateway' });
          res.end(JSON.stringify({ ok: true }));
        });
      });
      realtime = new SocketServer(upstream, { serveClient: false });
      realtime.on('connection', (socket) => {
        socket.on('echo', (text: string, ack: (reply: unknown) => void) =>
          ack({
            echoed: `echo:${text}`,
            transport: socket.conn.transport.name,
            token: socket.handshake.query.token,
            forwardedFor: socket.handshake.headers['x-forwarded-for'],
            forwardedProto: socket.handshake.headers['x-forwarded-proto'],
            forwardedHost: socket.handshake.headers['x-forwarded-host'],
          }),
        );
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      proxy = await start(dist, {
        API_PROXY_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      });
    });

    afterAll(async () => {
      await stop(proxy);
      await realtime.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    });

    it('forwards /api requests with method, path, query, body and forwarding headers', async () => {
      const r = await request(proxy.port, '/api/auth/login?x=1', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Host: 'app.example' },
        body: '{"email":"a@b.c"}',
      });
      expect(r.status).toBe(201);
      expect(r.headers['x-upstream']).toBe('gateway');
      expect(JSON.parse(r.body)).toEqual({ ok: true });
      const got = received[received.length - 1];
      expect(got).toMatchObject({ method: 'POST', url: '/api/auth/login?x=1', body: '{"email":"a@b.c"}' });
      expect(got.headers['x-forwarded-host']).toBe('app.example');
      expect(got.headers['x-forwarded-for']).toBe('127.0.0.1');
    });

    it("tells the upstream the protocol it knows, not the one a client claims", async () => {
      await request(proxy.port, '/api/x', { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(received[received.length - 1].headers['x-forwarded-proto']).toBe('http');
    });

    it("passes a 503 on once, as the gateway sent it (no retries of the browser's GET)", async () => {
      const r = await request(proxy.port, '/api/busy?id=1');
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('1');
      expect(received.filter((q) => q.url === '/api/busy?id=1')).toHaveLength(1);
    });

    it('leaves the API answers to the gateway: no static-site CSP on proxied responses', async () => {
      const r = await request(proxy.port, '/api/x');
      expect(r.headers['x-upstream']).toBe('gateway');
      expect(r.headers['content-security-policy']).toBeUndefined();
    });

    it('forwards /socket.io, long-polling and WebSocket alike, with the query and forwarding headers', async () => {
      const handshake = await request(proxy.port, '/socket.io/?EIO=4&transport=polling');
      expect(handshake.status).toBe(200);
      expect(handshake.body).toMatch(/^0\{"sid":/);
      for (const transport of ['polling', 'websocket'] as const) {
        const socket = connect(`http://127.0.0.1:${proxy.port}`, {
          transports: [transport],
          query: { token: 'the-session-token' },
          reconnection: false,
        });
        try {
          const answer = await socket.timeout(10_000).emitWithAck('echo', 'ping');
          expect(answer).toEqual({
            echoed: 'echo:ping',
            transport,
            token: 'the-session-token',
            forwardedFor: '127.0.0.1',
            forwardedProto: 'http',
            // The host the browser called, as the /api requests get it.
            forwardedHost: `127.0.0.1:${proxy.port}`,
          });
        } finally {
          socket.disconnect();
        }
      }
    });

    it('leaves other paths to the static files', async () => {
      const r = await request(proxy.port, '/apiary');
      expect(r.body).toBe(INDEX);
    });

    it('answers 502 when the upstream is down', async () => {
      const down = await start(dist, { API_PROXY_URL: 'http://127.0.0.1:9' });
      try {
        expect((await request(down.port, '/api/x')).status).toBe(502);
      } finally {
        await stop(down);
      }
    });
  });
  describe("the deployment's settings in the page (API_ORIGIN, MEMBER_WEB_URL, ADMIN_WEB_URL)", () => {
    const PAGE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Mate</title></head><body><div id="root"></div><!--${' Mate'.repeat(220)} --></body></html>`;
    const SETTINGS = {
      API_ORIGIN: 'http://127.0.0.1:3950',
      MEMBER_WEB_URL: 'http://127.0.0.1:4250/',
      ADMIN_WEB_URL: 'https://admin.mate.example',
    };
    const TAGS =
      '<meta name="mate:api-origin" content="http://127.0.0.1:3950">' +
      '<meta name="mate:member-web-url" content="http://127.0.0.1:4250">' +
      '<meta name="mate:admin-web-url" content="https://admin.mate.example">';
    const SETTLED = PAGE.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />${TAGS}`);
    let settled: Started;
    let folder: string;

    beforeAll(async () => {
      folder = fs.mkdtempSync(path.join(tmp, 'settled-'));
      fs.cpSync(dist, folder, { recursive: true });
      writePrecompressed(path.join(folder, 'index.html'), PAGE);
      settled = await start(folder, SETTINGS);
    });
    afterAll(() => stop(settled));

    const decoded = (r: Answer) =>
      r.headers['content-encoding'] === 'br'
        ? zlib.brotliDecompressSync(r.raw).toString('utf8')
        : r.headers['content-encoding'] === 'gzip'
          ? zlib.gunzipSync(r.raw).toString('utf8')
          : r.body;

    it('puts each setting into index.html after <meta charset>, at /, /index.html and every client route, in each encoding', async () => {
      for (const route of ['/', '/index.html', '/matches/42', '/admin/users?page=2']) {
        for (const [accept, encoding] of [
          ['gzip, deflate, br, zstd', 'br'],
          ['gzip', 'gzip'],
          ['identity', undefined],
          [undefined, undefined],
        ] as const) {
          const r = await request(settled.port, route, { headers: accept ? { 'Accept-Encoding': accept } : {} });
          expect({
            route,
            accept,
            status: r.status,
            encoding: r.headers['content-encoding'],
            length: Number(r.headers['content-length']),
            type: r.headers['content-type'],
            cache: r.headers['cache-control'],
            vary: r.headers.vary,
            page: decoded(r),
          }).toEqual({
            route,
            accept,
            status: 200,
            encoding,
            length: r.raw.length,
            type: 'text/html; charset=utf-8',
            cache: 'no-cache',
            vary: expect.stringMatching(/accept-encoding/i),
            page: SETTLED,
          });
        }
      }
    });

    it('still serves every other file from disk, with the CSP allowing the configured API', async () => {
      const script = await request(settled.port, '/assets/index-AbCd1234.js');
      expect(script.body).toBe(SCRIPT_JS);
      const csp = String((await request(settled.port, '/')).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:3950 ws://127.0.0.1:3950");
    });

    it('validates each encoding by its own ETag (304) and answers HEAD without a body', async () => {
      const br = await request(settled.port, '/', { headers: { 'Accept-Encoding': 'br' } });
      const plain = await request(settled.port, '/');
      expect(br.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(br.headers.etag).not.toBe(plain.headers.etag);
      const again = await request(settled.port, '/matches/42', {
        headers: { 'Accept-Encoding': 'br', 'If-None-Match': `"other", ${String(br.headers.etag)}` },
      });
      expect({ status: again.status, body: again.body }).toEqual({ status: 304, body: '' });
      const stale = await request(settled.port, '/', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': '"old"' } });
      expect(stale.status).toBe(200);
      const head = await request(settled.port, '/', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
      expect({ status: head.status, body: head.body, length: head.headers['content-length'] }).toEqual({
        status: 200,
        body: '',
        length: String(br.raw.length),
      });
    });

    it('escapes what it writes into the page, and refuses to start on a value that is not a web address', async () => {
      const quoted = await start(folder, { ADMIN_WEB_URL: 'https://admin.mate.example/a"b<c>&d' });
      try {
        const page = (await request(quoted.port, '/')).body;
        expect(page).toContain('<meta name="mate:admin-web-url" content="https://admin.mate.example/a%22b%3Cc%3E&amp;d">');
      } finally {
        await stop(quoted);
      }
      const refused: Record<string, string>[] = [
        { MEMBER_WEB_URL: 'javascript:alert(1)' },
        { ADMIN_WEB_URL: 'https://user:secret@admin.mate.example' },
        { MEMBER_WEB_URL: 'not a url' },
        { API_ORIGIN: '"><script>alert(1)</script>' },
      ];
      for (const env of refused) {
        await expect(start(folder, env)).rejects.toThrow(/exited with 1/);
      }
    });

    it('serves the page as built when no setting is given', async () => {
      const plain = await start(folder);
      try {
        expect((await request(plain.port, '/matches/42')).body).toBe(PAGE);
      } finally {
        await stop(plain);
      }
    });
  });
});
