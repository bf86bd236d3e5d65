/**
 * What both web apps' Vite configs do the same way: the workspace's path aliases, the API origin a
 * build calls, and the `.web-config.json` the web server reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv, type Plugin } from 'vite';
import { inlineScriptHashes } from './build-plugins';

const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The @mate/* path aliases of tsconfig.base.json, so Vite resolves the libs from source. */
export function workspaceAliases(): { find: RegExp; replacement: string }[] {
  const { compilerOptions } = JSON.parse(readFileSync(`${workspaceRoot}tsconfig.base.json`, 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.entries(compilerOptions.paths).map(([alias, [target]]) => ({
    find: new RegExp(`^${alias.replace('/', '\\/')}$`),
    replacement: `${workspaceRoot}${target}`,
  }));
}

/** The build's VITE_API_URL (a .env file in `appRoot` or the environment), as the app's api-base reads it. */
export function configuredApiUrl(mode: string, appRoot: string): string | undefined {
  return loadEnv(mode, appRoot, 'VITE_')['VITE_API_URL']?.trim();
}

/**
 * The origin of that URL, for the web server's Content-Security-Policy (`.web-config.json`);
 * null when none is configured (the app finds the gateway itself) or it is a path such as `/api`
 * (the page's own origin).
 */
export function configuredApiOrigin(mode: string, appRoot: string): string | null {
  const configured = configuredApiUrl(mode, appRoot);
  if (!configured) return null;
  try {
    return new URL(configured).origin;
  } catch {
    return null;
  }
}

/**
 * Writes `.web-config.json` beside index.html: the API origin this build calls (VITE_API_URL,
 * the same value the app's api-base reads; null when the app finds the gateway itself). The
 * web server (tools/web-server/server.mjs) builds its Content-Security-Policy from it, so
 * the CSP names the origin the app really talks to. A dotfile: never served. With `scriptHashes`
 * (the member app's prerendered start), it also lists the hashes of index.html's inline scripts,
 * read once index.html is written, which the server's CSP allows by name (script-src 'self'
 * 'sha256-…'), nothing else inline.
 */
export function webConfigFile(mode: string, appRoot: string, { scriptHashes = false } = {}): Plugin {
  const apiOrigin = configuredApiOrigin(mode, appRoot);
  if (!scriptHashes) {
    return {
      name: 'mate-web-config',
      apply: 'build',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: '.web-config.json', source: `${JSON.stringify({ apiOrigin })}\n` });
      },
    };
  }
  return {
    name: 'mate-web-config',
    apply: 'build',
    writeBundle({ dir }) {
      if (!dir) return;
      const hashes = inlineScriptHashes(readFileSync(path.join(dir, 'index.html'), 'utf8'));
      writeFileSync(path.join(dir, '.web-config.json'), `${JSON.stringify({ apiOrigin, scriptHashes: hashes })}\n`);
    },
  };
}
