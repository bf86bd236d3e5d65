/**
 * Build steps both web apps share (issue 26): files precompressed for the web server, and a budget
 * on the JavaScript a first visit downloads before it can show the first screen.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** What is worth compressing: text. Images and fonts are compressed already; maps are never served. */
const COMPRESSIBLE = /\.(html|js|mjs|css|json|webmanifest|svg|txt|xml)$/;
const MIN_BYTES = 1024;

const brotli = (data: Buffer) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const gzip = (data: Buffer) => gzipSync(data, { level: 9 });

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else if (entry.isFile()) yield file;
  }
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` beside every text file of 1 KB or more
 * in the output folder, once at build time: the web server (tools/web-server) sends them to a
 * browser that accepts them, so no request pays for compression and brotli can use its slowest,
 * smallest setting. It runs last, over the folder as written, so files other plugins write at the
 * end (the service worker of apps/web/pwa.config.ts) and the public folder's are compressed too.
 * A copy that would not be smaller is not written. A few lines of zlib: the compression plugins
 * for Vite work on the bundle, and miss what is written after it.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'mate-precompress',
    apply: 'build',
    configResolved(config: ResolvedConfig) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        if (!existsSync(outDir)) return;
        for (const file of filesUnder(outDir)) {
          if (!COMPRESSIBLE.test(file) || path.basename(file).startsWith('.')) continue;
          if (statSync(file).size < MIN_BYTES) continue;
          const data = readFileSync(file);
          for (const [suffix, compress] of [['.br', brotli], ['.gz', gzip]] as const) {
            const packed = compress(data);
            if (packed.length < data.length) writeFileSync(file + suffix, packed);
          }
        }
      },
    },
  };
}

export interface FirstScreenBudget {
  /** Most bytes of brotli-compressed JavaScript the entry and its static imports may weigh. */
  maxBrotliBytes: number;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * Fails the build when the JavaScript a browser must download before the first screen shows — the
 * entry chunk and every chunk it imports statically — passes the budget, compressed as it is
 * served (brotli; gzip printed beside it). Screens loaded on demand (import()) do not count: that
 * is the point of the budget. Prints the figures on every build.
 */
export function firstScreenBudget({ maxBrotliBytes }: FirstScreenBudget): Plugin {
  return {
    name: 'mate-first-screen-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((item) => item.type === 'chunk')
          .map((chunk) => [chunk.fileName, chunk]),
      );
      const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
      const needed = new Set<string>();
      const visit = (fileName: string) => {
        if (needed.has(fileName)) return;
        needed.add(fileName);
        chunks.get(fileName)?.imports.forEach(visit);
      };
      entries.forEach((entry) => visit(entry.fileName));
      let raw = 0;
      let brotliBytes = 0;
      let gzipBytes = 0;
      for (const fileName of needed) {
        const code = Buffer.from(chunks.get(fileName)?.code ?? '');
        raw += code.length;
        brotliBytes += brotli(code).length;
        gzipBytes += gzip(code).length;
      }
      const summary =
        `first screen JavaScript: ${needed.size} file(s), ${kb(raw)} raw, ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip ` +
        `(budget ${kb(maxBrotliBytes)} brotli)`;
      this.info(summary);
      if (brotliBytes > maxBrotliBytes) {
        this.error(`${summary}: over budget by ${kb(brotliBytes - maxBrotliBytes)}. Load more of it on demand (import()).`);
      }
    },
  };
}

/** What a prerender module exports (see `prerender`). */
export interface PrerenderModule {
  /** The markup to show at the first paint. */
  markup(): string;
  /** An inline script, run right after the root element, that puts the template's copy in place (or not). */
  script(templateId: string): string;
}

export interface PrerenderOptions {
  /** The module, from the app's root: exports `markup()` and `script(templateId)` (PrerenderModule). */
  entry: string;
  /** The id of the `<template>` the markup goes into. */
  templateId: string;
}

/** The comment in index.html, right after the root element, that the prerender replaces. */
export const PRERENDER_MARK = '<!-- prerender -->';

/**
 * Draws a screen at build time and puts it into index.html (issue 26): `entry` is loaded on Node
 * through Vite (the app's own config: aliases, JSX), its `markup()` goes into a `<template>` and its
 * `script()` inline after it, both where index.html has `<!-- prerender -->`. The script decides in
 * the page, before the first paint, whether that copy replaces the root element's content (a
 * template is never drawn on its own). The inline script needs a CSP hash: `inlineScriptHashes`
 * reads it from the written page. Without the mark, the build fails.
 */
export function prerender({ entry, templateId }: PrerenderOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'mate-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!html.includes(PRERENDER_MARK)) throw new Error(`prerender: index.html has no ${PRERENDER_MARK}`);
        const { createServer } = await import('vite');
        // Loading modules through a dev server sets NODE_ENV for the process; the build's stays.
        const nodeEnv = process.env['NODE_ENV'];
        const server = await createServer({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const module = (await server.ssrLoadModule(path.resolve(config.root, entry))) as PrerenderModule;
          const markup = module.markup();
          if (!markup.trim()) throw new Error(`prerender: ${entry} drew nothing`);
          // The page's CSP refuses style attributes (style-src-attr 'none'): such markup would break.
          if (/\sstyle="/.test(markup)) throw new Error(`prerender: ${entry} drew a style attribute, which the CSP refuses`);
          return html.replace(
            PRERENDER_MARK,
            `<template id="${templateId}">${markup}</template>\n    <script>${module.script(templateId)}</script>`,
          );
        } finally {
          await server.close();
          if (nodeEnv === undefined) delete process.env['NODE_ENV'];
          else process.env['NODE_ENV'] = nodeEnv;
        }
      },
    },
  };
}

/** `'sha256-…'` of every inline `<script>` of a page, as a Content-Security-Policy names them. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.length > 0)
    .map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
}

/**
 * Marks the page's own module script and its modulepreloads `fetchpriority="low"` (issue 26): the
 * stylesheets, which the first paint waits for, are fetched first instead of sharing a phone's
 * bandwidth with 150 KB of script, and the page paints what its markup already has (the
 * prerendered sign-in screen, or 'Loading...') while the code arrives. Chrome holds low-priority
 * requests back while render-blocking ones are in flight.
 */
export function scriptsAfterFirstPaint(): Plugin {
  return {
    name: 'mate-scripts-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"');
      },
    },
  };
}

export interface SessionPreloadOptions {
  /** The module, from the app's root, whose chunk (and the chunks it imports) a signed-in visit needs. */
  entry: string;
  /** localStorage keys that hold a session: any one of them set is a signed-in visit. */
  storageKeys: readonly string[];
  /**
   * The screens whose code comes as well when the page opens on them: a pattern over
   * `location.pathname` and the screen's module (a route's lazy chunk), from the app's root.
   */
  screens?: ReadonlyArray<{ pattern: string; entry: string }>;
}

/** `html` with an inline `script` right after its `<meta charset>`: before the stylesheets (an inline script after one waits for it). */
function scriptAfterCharset(html: string, script: string, who: string): string {
  const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(html);
  if (!charset) throw new Error(`${who}: index.html has no <meta charset>`);
  const at = charset.index + charset[0].length;
  return `${html.slice(0, at)}\n    <script>${script}</script>${html.slice(at)}`;
}

/**
 * Puts an inline script right after `<meta charset>` (and so before the stylesheets, which an
 * inline script after them would wait for), where it runs as the head is parsed: the early session
 * check (apps/web/src/prerender/early-requests.ts). The CSP allows it by its hash like every inline
 * script of the page (inlineScriptHashes).
 */
export function headScript({ name, script }: { name: string; script: string }): Plugin {
  return {
    name: `mate-head-script-${name}`,
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => scriptAfterCharset(html, script, `headScript ${name}`),
    },
  };
}

/**
 * For a visit with a stored session, preloads the code of the signed-in frame beside the app's own
 * entry (issue 26): an inline script right after `<meta charset>` adds a `modulepreload` (low priority,
 * as the entry's) for `entry`'s chunk and each chunk it imports that the entry does not already
 * load, and a `preload` of their stylesheets (a screen's own CSS comes with its chunk, issue 28).
 * Without it that code was asked for only once the entry had arrived and run, a round trip
 * later on a phone. A visitor without a session downloads none of it.
 */
export function sessionPreload({ entry, storageKeys, screens = [] }: SessionPreloadOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'mate-session-preload',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((output) => output.type === 'chunk');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const chunkOf = (module: string) => {
          const target = path.resolve(config.root, module);
          const chunk = chunks.find((c) => c.facadeModuleId === target);
          if (!chunk) throw new Error(`sessionPreload: no chunk for ${module} (is it imported with import()?)`);
          return chunk;
        };
        const frame = chunkOf(entry);
        /** A chunk's file and those of every chunk it imports statically, transitively, with their CSS. */
        const closure = (start: string[]) => {
          const seen = new Set<string>();
          const visit = (file: string) => {
            if (seen.has(file)) return;
            seen.add(file);
            byName.get(file)?.viteMetadata?.importedCss.forEach((css) => seen.add(css));
            byName.get(file)?.imports.forEach(visit);
          };
          start.forEach(visit);
          return seen;
        };
        const loaded = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
        const frameFiles = closure([frame.fileName]);
        const urls = (files: Iterable<string>) => [...files].filter((file) => !loaded.has(file)).map((file) => `${config.base}${file}`);
        const files = urls(frameFiles);
        // Each screen's chunks that neither the entry nor the frame brings.
        const perScreen = screens.map(({ pattern, entry: module }) => [
          pattern,
          urls([...closure([chunkOf(module).fileName])].filter((file) => !frameFiles.has(file))),
        ]);
        const script =
          `(function(){try{var k=${JSON.stringify(storageKeys)},f=${JSON.stringify(files)},s=${JSON.stringify(perScreen)};` +
          `for(var n=0;n<s.length;n++)if(new RegExp(s[n][0]).test(location.pathname)){f=f.concat(s[n][1]);break}` +
          `for(var i=0;i<k.length;i++)if(localStorage.getItem(k[i])){for(var j=0;j<f.length;j++){` +
          `var l=document.createElement('link'),c=/\\.css$/.test(f[j]);l.rel=c?'preload':'modulepreload';if(c)l.as='style';l.href=f[j];l.crossOrigin='';` +
          `l.setAttribute('fetchpriority','low');document.head.appendChild(l)}return}}catch(e){}})()`;
        return scriptAfterCharset(html, script, 'sessionPreload');
      },
    },
  };
}
