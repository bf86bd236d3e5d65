interface PageLocation {
  protocol: string;
  hostname: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
export const LOCAL_GATEWAY_PORT = 3000;

/**
 * Where the gateway lives (spec 000 §7): VITE_API_URL when set; on localhost the gateway's port
 * 3000; otherwise the page's own origin (''), behind the same ingress. Paths carry `/api`, so a
 * trailing `/api` in VITE_API_URL is dropped rather than doubled.
 */
export function resolveApiBase(envUrl: string | undefined, location: PageLocation): string {
  const configured = envUrl?.trim();
  if (configured) return configured.replace(/\/+$/, '').replace(/\/api$/, '');
  if (LOCAL_HOSTS.has(location.hostname)) return `${location.protocol}//${location.hostname}:${LOCAL_GATEWAY_PORT}`;
  return '';
}
