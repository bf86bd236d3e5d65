import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isIgnored, parseDockerfile, stageAncestry } from './lib/dockerfile';
import { discoverApps, ROOT, rootPath, walkFiles } from './lib/workspace';

const DOCKERFILE = rootPath('docker/Dockerfile');
const df = parseDockerfile(DOCKERFILE);
/** The default target: a service image. */
const finalStage = df.stages[df.stages.length - 1];
const webStage = df.stages.find((s) => s.name === 'web');
/** The two image targets (service, web), each with the stages it is built FROM. */
const imageStages = [finalStage, ...(webStage ? [webStage] : [])].map((stage) => ({
  stage,
  chain: stageAncestry(df, stage),
}));
const runs = df.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

describe('docker/Dockerfile', () => {
  it('is one multi-stage file whose two image targets (service, the default, and web) run on node:20-bookworm-slim', () => {
    expect(df.stages.length).toBeGreaterThanOrEqual(3);
    expect(finalStage.name).toBe('service');
    expect(webStage).toBeDefined();
    for (const { chain } of imageStages) {
      expect(chain[chain.length - 1].fromResolved).toBe('node:20-bookworm-slim');
    }
  });

  it('needs no frontend image from a registry (no `# syntax=` line) and builds every app at once with BUILD_STAGE=build-all', () => {
    expect(fs.readFileSync(DOCKERFILE, 'utf8')).not.toMatch(/^#\s*syntax=/m);
    expect(df.globalArgs.BUILD_STAGE).toBe('build-one');
    const all = df.stages.find((s) => s.name === 'build-all');
    // No APP in the stage: it is the same for every image, so it compiles once.
    expect(all?.instructions.some((i) => i.keyword === 'ARG' && /^APP\b/.test(i.args))).toBe(false);
    expect(all?.instructions.some((i) => i.keyword === 'RUN' && /nx run-many -t build/.test(i.args))).toBe(true);
    expect(df.stages.find((s) => s.name === 'built')?.from).toBe('${BUILD_STAGE}');
  });

  it('builds the app named by --build-arg APP with nx (no daemon, no cloud)', () => {
    const build = df.stages.find((s) =>
      s.instructions.some((i) => i.keyword === 'RUN' && /nx run "?\$\{?APP\}?:build/.test(i.args)),
    );
    expect(build).toBeDefined();
    const env = stageAncestry(df, build as (typeof df.stages)[number])
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/NX_DAEMON=false/);
    expect(env).toMatch(/NX_NO_CLOUD=true/);
    expect(build?.instructions.some((i) => i.keyword === 'ARG' && /^APP\b/.test(i.args))).toBe(true);
    expect(finalStage.instructions.some((i) => i.keyword === 'ARG' && /^APP\b/.test(i.args))).toBe(true);
  });

  it('installs with npm install (never npm ci, never --ignore-scripts, no Playwright browser download)', () => {
    expect(runs.filter((r) => /npm install/.test(r)).length).toBeGreaterThanOrEqual(2);
    expect(runs.filter((r) => /\bnpm ci\b/.test(r) || /--ignore-scripts/.test(r))).toEqual([]);
    for (const stage of df.stages.filter((s) =>
      s.instructions.some((i) => i.keyword === 'RUN' && /npm install/.test(i.args)),
    )) {
      const env = stageAncestry(df, stage)
        .flatMap((s) => s.instructions)
        .filter((i) => i.keyword === 'ENV')
        .map((i) => i.args)
        .join(' ');
      expect(env).toMatch(/PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1/);
    }
  });

  it('ships only production dependencies in the runtime stage', () => {
    const copies = finalStage.instructions.filter((i) => i.keyword === 'COPY' && /node_modules/.test(i.args));
    expect(copies).toHaveLength(1);
    const from = /--from=(\S+)/.exec(copies[0].args)?.[1];
    const source = df.stages.find((s) => s.name === from);
    const sourceRuns = stageAncestry(df, source as (typeof df.stages)[number])
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'RUN');
    expect(sourceRuns.some((i) => /npm install[^&]*--omit=dev/.test(i.args))).toBe(true);
    // ... and of those only the packages this app loads (docker/prune-deps.cjs).
    expect(sourceRuns.some((i) => /prune-deps\.cjs/.test(i.args))).toBe(true);
    expect(
      finalStage.instructions.filter((i) => i.keyword === 'RUN' && /npm (install|ci)/.test(i.args)),
    ).toEqual([]);
  });

  it('runs as a non-root user with a HEALTHCHECK and the entrypoint script (service and web images)', () => {
    for (const { stage, chain } of imageStages) {
      const users = stage.instructions.filter((i) => i.keyword === 'USER');
      expect(users.length).toBeGreaterThan(0);
      const user = users[users.length - 1].args.split(':')[0];
      expect(['root', '0', '']).not.toContain(user);
      const inherited = chain.flatMap((s) => s.instructions);
      const health = inherited.filter((i) => i.keyword === 'HEALTHCHECK');
      expect(health).toHaveLength(1);
      expect(health[0].args).not.toMatch(/^NONE/i);
      expect(health[0].args).toMatch(/healthcheck\.cjs/);
      const entrypoint = inherited.find((i) => i.keyword === 'ENTRYPOINT');
      expect(entrypoint?.args).toMatch(/docker\/entrypoint\.sh/);
      const env = inherited
        .filter((i) => i.keyword === 'ENV')
        .map((i) => i.args)
        .join(' ');
      expect(env).toMatch(/NODE_ENV=production/);
      expect(env).toMatch(/HOST=0\.0\.0\.0/);
      expect(stage.instructions.some((i) => i.keyword === 'ARG' && /^APP\b/.test(i.args))).toBe(true);
    }
  });

  it('points local photo storage at /app/uploads, the folder the app user may write (compose and k8s mount it)', () => {
    const env = finalStage.instructions.filter((i) => i.keyword === 'ENV').map((i) => i.args).join(' ');
    expect(env).toMatch(/PHOTO_DIR=\/app\/uploads/);
    const runs = stageAncestry(df, finalStage).flatMap((s) => s.instructions).filter((i) => i.keyword === 'RUN');
    expect(runs.some((i) => /mkdir -p \/app\/uploads && chown 1000:1000 \/app\/uploads/.test(i.args))).toBe(true);
  });

  it('ships in a web app image the web server and only the production dependencies it loads, one layer for both web apps', () => {
    const chain = imageStages.find(({ stage }) => stage === webStage)?.chain ?? [];
    const copies = chain.flatMap((s) => s.instructions).filter((i) => i.keyword === 'COPY');
    expect(copies.some((i) => /^tools\/web-server\s/.test(i.args))).toBe(true);
    const modules = copies.filter((i) => /node_modules/.test(i.args));
    expect(modules).toHaveLength(1);
    const source = df.stages.find((s) => s.name === /--from=(\S+)/.exec(modules[0].args)?.[1]);
    expect(source).toBeDefined();
    const sourceChain = stageAncestry(df, source as (typeof df.stages)[number]);
    const sourceRuns = sourceChain.flatMap((s) => s.instructions).filter((i) => i.keyword === 'RUN');
    expect(sourceRuns.some((i) => /npm install[^&]*--omit=dev/.test(i.args))).toBe(true);
    expect(sourceRuns.some((i) => /prune-deps\.cjs \S*web-server/.test(i.args))).toBe(true);
    // No APP in that stage: both web images share it.
    expect(source?.instructions.some((i) => i.keyword === 'ARG' && /^APP\b/.test(i.args))).toBe(false);
  });

  it("names in the web server's imports only production dependencies (the image installs with --omit=dev)", () => {
    const lock = JSON.parse(fs.readFileSync(rootPath('package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const files = walkFiles(rootPath('tools/web-server'), (f) => /\.m?js$/.test(f));
    const named = new Set<string>();
    for (const file of files) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/^import\s[^'"]*['"]([^'".][^'"]*)['"]/gm)) {
        if (m[1].startsWith('node:')) continue;
        named.add(m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0]);
      }
    }
    expect([...named].sort()).toEqual(['@fastify/accept-negotiator', '@fastify/http-proxy', '@fastify/static', 'fastify']);
    for (const pkg of named) {
      const entry = lock.packages[`node_modules/${pkg}`];
      expect({ pkg, production: Boolean(entry) && !entry.dev }).toEqual({ pkg, production: true });
    }
  });

  it('copies from the build context only files the ignore file keeps', () => {
    const ignore = fs.readFileSync(rootPath('docker/Dockerfile.dockerignore'), 'utf8').split('\n');
    for (const required of ['node_modules', 'dist', '.nx', '.git', 'tmp']) {
      expect({ required, ignored: isIgnored(ignore, required) }).toEqual({ required, ignored: true });
    }
    const sources = df.instructions
      .filter((i) => i.keyword === 'COPY' && !/--from=/.test(i.args))
      .flatMap((i) =>
        i.args
          .split(/\s+/)
          .filter((a) => !a.startsWith('--'))
          .slice(0, -1),
      )
      .filter((s) => s !== '.');
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) {
      expect({ source: s, exists: fs.existsSync(path.join(ROOT, s)), ignored: isIgnored(ignore, s) }).toEqual(
        { source: s, exists: true, ignored: false },
      );
    }
    for (const kept of [
      'package.json',
      'package-lock.json',
      'nx.json',
      'tsconfig.base.json',
      'apps/web/index.html',
      'libs/contracts/src/index.ts',
    ]) {
      expect({ kept, ignored: isIgnored(ignore, kept) }).toEqual({ kept, ignored: false });
    }
  });

  it('the shell scripts are valid POSIX shell and executable', () => {
    for (const script of ['docker/entrypoint.sh', 'docker/postgres/create-databases.sh']) {
      const r = spawnSync('sh', ['-n', rootPath(script)], { encoding: 'utf8' });
      expect({ script, status: r.status, stderr: r.stderr }).toEqual({ script, status: 0, stderr: '' });
      expect(fs.statSync(rootPath(script)).mode & 0o111).not.toBe(0);
    }
  });
});

describe('backend runtime imports are production dependencies (the image runs npm install --omit=dev)', () => {
  const lock = JSON.parse(fs.readFileSync(rootPath('package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const builtins = new Set(builtinModules);
  const { compilerOptions } = JSON.parse(fs.readFileSync(rootPath('tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const isRuntimeSource = (f: string) =>
    /\.tsx?$/.test(f) &&
    !/\.(spec|test|integration-spec)\.tsx?$/.test(f) &&
    !f.split(path.sep).includes('__tests__') &&
    !f.split(path.sep).includes('testing');
  const SPECIFIER =
    /^\s*(?:import|export)\s+(?!type\s)(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

  const backendApps = discoverApps().filter((a) => a.kind !== 'web');
  const cases = backendApps.map((a) => [a.name]);
  const runIt = cases.length > 0 ? it.each(cases) : it.skip.each([['(no backend app yet)']]);
  runIt('%s', (app) => {
    const dirs = [rootPath('apps', app, 'src')];
    const missing = new Set<string>();
    for (let i = 0; i < dirs.length; i += 1) {
      for (const file of walkFiles(dirs[i], isRuntimeSource)) {
        const text = fs.readFileSync(file, 'utf8');
        for (const m of text.matchAll(SPECIFIER)) {
          const spec = m[1] ?? m[2] ?? m[3];
          if (spec.startsWith('.') || spec.startsWith('node:') || builtins.has(spec.split('/')[0])) continue;
          const alias = compilerOptions.paths[spec];
          if (alias) {
            const libDir = path.dirname(rootPath(alias[0]));
            if (!dirs.includes(libDir)) dirs.push(libDir);
            continue;
          }
          const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          const entry = lock.packages[`node_modules/${pkg}`];
          if (!entry || entry.dev) missing.add(`${pkg} (${path.relative(ROOT, file)})`);
        }
      }
    }
    expect([...missing]).toEqual([]);
    // The scan follows the workspace libraries a service imports (they are compiled into its dist).
    const appText = walkFiles(rootPath('apps', app, 'src'), isRuntimeSource)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    if (appText.includes("'@mate/server-kit'")) expect(dirs).toContain(rootPath('libs/server-kit/src'));
  });
});

/** Runs docker/entrypoint.sh against a fake dist folder. */
function runEntrypoint(dist: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync('sh', [rootPath('docker/entrypoint.sh'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', APP: 'demo', APP_DIST: dist, ...env },
  });
}

describe('docker/entrypoint.sh', () => {
  let tmp: string;
  let service: string;
  let web: string;
  let empty: string;
  let fakeServer: string;
  const printArgs = 'process.stdout.write(JSON.stringify(process.argv.slice(2)))';

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'entrypoint-'));
    service = path.join(tmp, 'service');
    web = path.join(tmp, 'web');
    empty = path.join(tmp, 'empty');
    for (const d of [service, web, empty]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(service, 'main.js'), `${printArgs};\n`);
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html>');
    fakeServer = path.join(tmp, 'server.mjs');
    fs.writeFileSync(fakeServer, `${printArgs};\n`);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('starts a service with node main.js (default command and `start`)', () => {
    expect(runEntrypoint(service, []).stdout).toBe('[]');
    expect(runEntrypoint(service, ['start']).stdout).toBe('[]');
    expect(runEntrypoint(service, ['start', '--inspect-later']).stdout).toBe('["--inspect-later"]');
  });

  it('runs a service migration with node main.js migrate', () => {
    const r = runEntrypoint(service, ['migrate']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('["migrate"]');
  });

  it('serves a web app with the web server on its dist folder', () => {
    const r = runEntrypoint(web, [], { WEB_SERVER: fakeServer });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([web]);
  });

  it('refuses migrate for a web app and a dist without main.js or index.html', () => {
    expect(runEntrypoint(web, ['migrate']).status).toBe(64);
    const r = runEntrypoint(empty, []);
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/neither main\.js nor index\.html/);
  });

  it('runs any other command as given', () => {
    const r = runEntrypoint(service, ['node', '-e', 'process.stdout.write("other")']);
    expect(r.stdout).toBe('other');
  });

  it('fails without APP', () => {
    const r = spawnSync('sh', [rootPath('docker/entrypoint.sh')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/APP is not set/);
  });
});

describe('docker/healthcheck.cjs', () => {
  let server: http.Server;
  let port: number;
  let tmp: string;
  const seen: string[] = [];
  let status = 200;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'healthcheck-'));
    fs.mkdirSync(path.join(tmp, 'service'));
    fs.writeFileSync(path.join(tmp, 'service', 'main.js'), '');
    fs.mkdirSync(path.join(tmp, 'web'));
    fs.writeFileSync(path.join(tmp, 'web', 'index.html'), '');
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const probe = (dist: string, args: string[] = [], p = port) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [rootPath('docker/healthcheck.cjs'), ...args], {
        env: { PATH: process.env.PATH ?? '', APP_DIST: dist, PORT: String(p) },
        stdio: 'ignore',
      });
      child.on('exit', (code) => resolve(code));
    });

  it('probes /health/live for a service and /health for a web app', async () => {
    status = 200;
    seen.length = 0;
    expect(await probe(path.join(tmp, 'service'))).toBe(0);
    expect(await probe(path.join(tmp, 'web'))).toBe(0);
    expect(await probe(path.join(tmp, 'service'), ['/health/ready'])).toBe(0);
    expect(seen).toEqual(['/health/live', '/health', '/health/ready']);
  });

  it('fails on a non-2xx answer and when nothing listens', async () => {
    status = 503;
    expect(await probe(path.join(tmp, 'service'))).toBe(1);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await probe(path.join(tmp, 'service'), [], closedPort)).toBe(1);
  });
});
