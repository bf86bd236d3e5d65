import { useEffect } from 'react';
import { FullScreenLoading, pageSetting } from '@mate/ui';
import { useLocation } from 'react-router-dom';
import { resolveAdminWebUrl } from '../app/admin-web-url';

/** The full-page navigation to the admin app; an object so tests can replace `assign`. */
export const adminAppNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

export function adminAppUrl(path: string): string {
  return `${resolveAdminWebUrl(pageSetting('admin-web-url') ?? import.meta.env.VITE_ADMIN_WEB_URL, window.location)}${path}`;
}

/**
 * `/admin` and `/admin/...` (issue 13): the admin screens live in the admin app, on its own
 * origin, at the same path.
 */
export function AdminRedirect() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    adminAppNavigation.assign(adminAppUrl(`${pathname}${search}`));
  }, [pathname, search]);
  return <FullScreenLoading />;
}
