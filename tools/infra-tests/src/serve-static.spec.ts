import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { rootPath } from './lib/workspace';

const SCRIPT = rootPath('tools/scripts/serve-static.mjs');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Starts serve-static on a free port and resolves once it prints its address. */
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
    child.on('exit', (code) => reject(new Error(`serve-static exited with ${code}: ${out}`)));
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
  body: string;
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
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('tools/scripts/serve-static.mjs', () => {
  let tmp: string;
  let dist: string;
  let server: Started;
  const INDEX = '<!doctype html><title>Mate</title>';
  const SECRET = 'top-secret-outside-the-root';
  const SOURCE_MAP = '{"version":3,"sources":["../../src/auth/AuthContext.tsx"],"mappings":"AAAA"}';

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-static-'));
    dist = path.join(tmp, 'dist');
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.mkdirSync(path.join(dist, 'docs'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbCd1234.js'), 'console.log(1);');
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbCd1234.js.map'), SOURCE_MAP);
    fs.writeFileSync(path.join(dist, 'assets', 'index-Zx9_8-7q.css'), 'body{}');
    fs.writeFileSync(path.join(dist, 'assets', 'logo.svg'), '<svg/>');
    fs.writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
    fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{}');
    fs.writeFileSync(path.join(dist, 'apple-touch-icon.png'), Buffer.from([137, 80, 78, 71]));
    fs.writeFileSync(path.join(dist, 'docs', 'index.html'), '<p>docs</p>');
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
      ['/apple-touch-icon.png', 'image/png'],
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
    for (const file of ['/assets/logo.svg', '/robots.txt', '/apple-touch-icon.png', '/', '/matches/1']) {
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

  it('hides dotfiles', async () => {
    const r = await request(server.port, '/.env');
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('SECRET');
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

    /** Starts serve-static on a copy of the dist with the given `.web-config.json` (or none). */
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
      const served = /LOCAL_GATEWAY_PORT\s*=\s*(\d+)/.exec(fs.readFileSync(SCRIPT, 'utf8'))?.[1];
      expect(port).toMatch(/^\d+$/);
      expect(served).toBe(port);
    });
  });

  describe('with API_PROXY_URL (same-origin API without an ingress)', () => {
    let upstream: http.Server;
    let proxy: Started;
    const tunnels = new Set<Socket>();
    const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> =
      [];

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
          res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'gateway' });
          res.end(JSON.stringify({ ok: true }));
        });
      });
      upstream.on('upgrade', (_req, socket: Socket) => {
        tunnels.add(socket);
        socket.on('end', () => socket.end());
        socket.on('close', () => tunnels.delete(socket));
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        socket.on('data', (d) => socket.write(`echo:${d.toString()}`));
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      proxy = await start(dist, {
        API_PROXY_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      });
    });

    afterAll(async () => {
      await stop(proxy);
      upstream.closeAllConnections();
      tunnels.forEach((t) => t.destroy());
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

    it('leaves the API answers to the gateway: no static-site CSP on proxied responses', async () => {
      const r = await request(proxy.port, '/api/x');
      expect(r.headers['x-upstream']).toBe('gateway');
      expect(r.headers['content-security-policy']).toBeUndefined();
    });

    it('forwards /socket.io and WebSocket upgrades', async () => {
      expect((await request(proxy.port, '/socket.io/?EIO=4&transport=polling')).status).toBe(201);
      const echoed = await new Promise<string>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port: proxy.port,
          path: '/socket.io/?EIO=4&transport=websocket',
          headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
        });
        req.on('upgrade', (res, socket) => {
          expect(res.statusCode).toBe(101);
          socket.once('data', (d: Buffer) => {
            resolve(d.toString());
            socket.destroy();
          });
          socket.write('ping');
        });
        req.on('error', reject);
        req.end();
      });
      expect(echoed).toBe('echo:ping');
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
});
