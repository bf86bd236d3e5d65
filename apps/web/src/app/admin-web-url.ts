interface PageLocation {
  protocol: string;
  hostname: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
/** The admin app's port on one machine (ARCHITECTURE §1; DEFAULT_PORTS['admin-web']). */
export const LOCAL_ADMIN_WEB_PORT = 4300;

/**
 * Where the admin app lives (issue 13: a separate app on its own origin), like the API base in
 * api-base.ts: VITE_ADMIN_WEB_URL when set; on localhost port 4300; otherwise the `admin.` host
 * beside this one (`app.mate.example.com` → `admin.mate.example.com`, the ingress hosts of
 * k8s/base/*\/ingress.yaml). Never this app's own origin, whose /admin routes lead here.
 */
export function resolveAdminWebUrl(envUrl: string | undefined, location: PageLocation): string {
  const configured = envUrl?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  if (LOCAL_HOSTS.has(location.hostname)) return `${location.protocol}//${location.hostname}:${LOCAL_ADMIN_WEB_PORT}`;
  return `${location.protocol}//admin.${location.hostname.replace(/^app\./, '')}`;
}
