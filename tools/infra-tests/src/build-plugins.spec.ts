import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { rootPath } from './lib/workspace';

// The web apps' shared build steps (tools/vite/build-plugins.ts, issue 26), on a small app of
// their own: a first screen of ~30 KB of text and a ~140 KB screen loaded on demand.
const CONFIG = rootPath('tools/infra-tests/fixtures/budget-app/vite.config.mts');
const VITE = rootPath('node_modules/.bin/vite');

function build(budget: number, env: Record<string, string> = {}) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-app-'));
  const run = spawnSync(VITE, ['build', '--config', CONFIG], {
    cwd: rootPath('.'),
    env: { ...process.env, FIXTURE_OUT_DIR: outDir, FIXTURE_BUDGET: String(budget), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { outDir, status: run.status, output: `${run.stdout}${run.stderr}` };
}

const filesIn = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

describe('the web build steps', () => {
  const dirs: string[] = [];
  /** One build within the budget, read by the first two tests. */
  let withinBudget: ReturnType<typeof build>;
  beforeAll(() => {
    withinBudget = build(150_000);
    dirs.push(withinBudget.outDir);
  });
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('writes a brotli and a gzip copy of every text file of 1 KB or more, each decompressing to the file', () => {
    const { outDir, status, output } = withinBudget;
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('first screen JavaScript') });
    const files = filesIn(outDir);
    const scripts = files.filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const file of [...scripts, path.join(outDir, 'index.html')]) {
      const original = fs.readFileSync(file);
      if (original.length < 1024) {
        expect(fs.existsSync(`${file}.br`)).toBe(false);
        continue;
      }
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(original)).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).equals(original)).toBe(true);
      expect(fs.statSync(`${file}.br`).size).toBeLessThan(original.length);
    }
    expect(files.some((f) => f.endsWith('.br.br') || f.endsWith('.gz.br') || f.endsWith('.map.br'))).toBe(false);
  });

  it('counts only the first screen: the screen loaded on demand is outside the budget', () => {
    const { status, output } = withinBudget;
    expect(status).toBe(0);
    const [, brotliKb] = /first screen JavaScript: \d+ file\(s\), [\d.]+ KB raw, ([\d.]+) KB brotli/.exec(output) ?? [];
    // ~30 KB of random words brotli to ~12 KB; with the 140 KB screen it would be ~60 KB.
    expect(Number(brotliKb)).toBeGreaterThan(5);
    expect(Number(brotliKb)).toBeLessThan(25);
  });

  it("puts the prerendered markup in a template and its script inline where index.html says, and marks the app's scripts low priority", () => {
    const { outDir, status } = withinBudget;
    expect(status).toBe(0);
    const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('<div id="root"></div><template id="start"><h1>Drawn at build time</h1></template>');
    expect(html).not.toContain('<!-- prerender -->');
    const script = `document.getElementById('root').replaceChildren(document.getElementById("start").content.cloneNode(true))`;
    expect(html).toContain(`<script>${script}</script>`);
    // The hashes a CSP names them by (inlineScriptHashes, as the member app lists them): each inline script.
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toContain(script);
    expect(JSON.parse(fs.readFileSync(path.join(outDir, '.script-hashes.json'), 'utf8'))).toEqual(
      inline.map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`),
    );
    // The page's own module script and its preloads wait behind the stylesheets.
    const tags = html.match(/<script type="module"[^>]*>|<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThanOrEqual(1);
    for (const tag of tags) expect(tag).toContain('fetchpriority="low"');
  });

  it('preloads the on-demand chunk for a visit with a stored session, from a script before the stylesheets', () => {
    const { outDir, status } = withinBudget;
    expect(status).toBe(0);
    const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const later = fs.readdirSync(path.join(outDir, 'assets')).find((f) => /^later-.*\.js$/.test(f));
    expect(later).toBeDefined();
    const preload = /<script>(\(function\(\)\{try\{var k=\["fixture_token"\][\s\S]*?)<\/script>/.exec(html);
    expect(preload?.[1]).toContain(`"/assets/${later}"`);
    expect(preload?.[1]).not.toContain('/assets/index-');
    expect(html.indexOf(preload?.[0] ?? '')).toBeLessThan(html.indexOf('rel="stylesheet"'));
    const screen = fs.readdirSync(path.join(outDir, 'assets')).find((f) => /^screen-.*\.js$/.test(f));
    expect(screen).toBeDefined();
    // In a page: with the key set it adds the preloads (and the screen's on its route), without it nothing.
    const preloads = (stored: string | null, pathname: string) => {
      const links: { rel: string; href: string }[] = [];
      const document = { createElement: () => ({ setAttribute: () => undefined }), head: { appendChild: (l: { rel: string; href: string }) => links.push(l) } };
      const localStorage = { getItem: (key: string) => (key === 'fixture_token' ? stored : null) };
      new Function('document', 'localStorage', 'location', preload?.[1] ?? '')(document, localStorage, { pathname });
      return links.map((l) => [l.rel, l.href]);
    };
    expect(preloads(null, '/')).toEqual([]);
    expect(preloads(null, '/screen')).toEqual([]);
    expect(preloads('t', '/')).toEqual([['modulepreload', `/assets/${later}`]]);
    expect(preloads('t', '/screen')).toEqual([
      ['modulepreload', `/assets/${later}`],
      ['modulepreload', `/assets/${screen}`],
    ]);
  });

  it('fails the build when the prerendered markup has a style attribute (the CSP refuses them)', () => {
    const { outDir, status, output } = build(150_000, { FIXTURE_PRERENDER_STYLE: '1' });
    dirs.push(outDir);
    expect(status).not.toBe(0);
    expect(output).toContain('drew a style attribute, which the CSP refuses');
  });

  it('fails the build when the first screen passes the budget, saying by how much', () => {
    const { outDir, status, output } = build(5_000);
    dirs.push(outDir);
    expect(status).not.toBe(0);
    expect(output).toMatch(/first screen JavaScript: .* over budget by [\d.]+ KB/);
  });
});
