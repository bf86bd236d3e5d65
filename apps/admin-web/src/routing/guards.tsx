import { useEffect, type ReactNode } from 'react';
import { FullScreenLoading } from '@mate/ui';
import { Navigate, Outlet } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext';
import { useBrowser, useMemberAppUrl } from '../browser/AdminBrowser';

/** Leaves for the member app (a full-page load of another origin). */
export function MemberAppRedirect() {
  const browser = useBrowser();
  const url = useMemberAppUrl('/dashboard');
  useEffect(() => browser.assign(url), [browser, url]);
  return <FullScreenLoading label="Redirecting..." />;
}

/**
 * Spec 001 §2 guards of every admin screen: no stored token → `/` (this app's sign-in); a stored
 * user that is absent or not admin → the member app's /dashboard. The server checks the role again
 * on every call.
 */
export function RequireAdmin() {
  const { initializing, token, user, isAdmin } = useAuth();
  if (!token) return <Navigate to="/" replace />;
  if (initializing) return <FullScreenLoading />;
  if (!user || !isAdmin) return <MemberAppRedirect />;
  return <Outlet />;
}

/** `/` and `/login`: the sign-in screen, or the dashboard for a signed-in admin. */
export function PublicEntry({ children }: { children: ReactNode }) {
  const { initializing, isAdmin } = useAuth();
  if (initializing) return <FullScreenLoading />;
  if (isAdmin) return <Navigate to="/admin" replace />;
  return <>{children}</>;
}
