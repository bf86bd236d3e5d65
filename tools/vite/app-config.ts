/**
 * What both web apps' Vite configs read the same way: the workspace's path aliases, and the API
 * origin a build calls.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEnv } from 'vite';

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
