export interface PageLocation {
  protocol: string;
  hostname: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
/** The same numbers as DEFAULT_PORTS in @mate/contracts (gateway, member app). */
export const LOCAL_GATEWAY_PORT = 3000;
export const LOCAL_MEMBER_WEB_PORT = 4200;

function trimmed(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text.replace(/\/+$/, '') : undefined;
}

/**
 * Where the gateway lives: VITE_API_URL when set; on localhost the gateway's port 3000; on an
 * `admin.` host the `api.` sibling (k8s/base/gateway/ingress.yaml serves /api and /admin there);
 * otherwise the page's own origin (''). The admin app cannot call its own origin behind an
 * ingress: its paths (`/admin/...`) are its client-side routes. A trailing `/api` in VITE_API_URL
 * is dropped rather than doubled.
 */
export function resolveApiBase(envUrl: string | undefined, location: PageLocation): string {
  const configured = trimmed(envUrl);
  if (configured) return configured.replace(/\/api$/, '');
  if (LOCAL_HOSTS.has(location.hostname)) return `${location.protocol}//${location.hostname}:${LOCAL_GATEWAY_PORT}`;
  if (location.hostname.startsWith('admin.')) return `${location.protocol}//api.${location.hostname.slice('admin.'.length)}`;
  return '';
}

/**
 * The member app, where non-admins are sent: VITE_MEMBER_WEB_URL when set; on localhost port
 * 4200; otherwise the sibling host (`admin.example.com` → `app.example.com`, the ingress hosts of
 * k8s/base/web/ingress.yaml).
 */
export function resolveMemberWebUrl(envUrl: string | undefined, location: PageLocation): string {
  const configured = trimmed(envUrl);
  if (configured) return configured;
  if (LOCAL_HOSTS.has(location.hostname)) return `${location.protocol}//${location.hostname}:${LOCAL_MEMBER_WEB_PORT}`;
  const host = location.hostname.replace(/^admin\./, '');
  return `${location.protocol}//app.${host}`;
}
