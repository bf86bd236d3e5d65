import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getManifest } from 'workbox-build';
import { afterEach, describe, expect, it } from 'vitest';
import { PRECACHE_GLOBS } from '../../pwa.config';

let dist: string | null = null;

/** A build output as `vite build` writes it: the files, their .br/.gz copies, maps, the server's config. */
function fakeBuild(files: string[]): string {
  dist = mkdtempSync(join(tmpdir(), 'mate-web-dist-'));
  for (const file of files) {
    const path = join(dist, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `contents of ${file}`);
  }
  return dist;
}

afterEach(() => {
  if (dist) rmSync(dist, { recursive: true, force: true });
  dist = null;
});

describe('what /sw.js precaches (pwa.config.ts)', () => {
  it("lists the build's own files once each: no compressed copies, maps, server config or the worker itself", async () => {
    const globDirectory = fakeBuild([
      'index.html',
      'index.html.br',
      'index.html.gz',
      'manifest.webmanifest',
      'favicon.svg',
      'icons/icon-192.png',
      'icons/icon-maskable-512.png',
      'assets/index-abc123.js',
      'assets/index-abc123.js.br',
      'assets/index-abc123.js.gz',
      'assets/index-abc123.js.map',
      'assets/ChatScreen-def456.js',
      'assets/index-abc123.css',
      'assets/inter-latin-400.woff2',
      '.web-config.json',
      'sw.js',
    ]);
    const { manifestEntries } = await getManifest({ globDirectory, ...PRECACHE_GLOBS });
    expect((manifestEntries ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.url)).sort()).toEqual([
      'assets/ChatScreen-def456.js',
      'assets/index-abc123.css',
      'assets/index-abc123.js',
      'assets/inter-latin-400.woff2',
      'favicon.svg',
      'icons/icon-192.png',
      'icons/icon-maskable-512.png',
      'index.html',
      'manifest.webmanifest',
    ]);
  });
});
