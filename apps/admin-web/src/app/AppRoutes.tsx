import { Suspense } from 'react';
import { Navigate, Route, Routes, matchPath } from 'react-router-dom';
import { PublicEntry, RequireAdmin } from '../routing/guards';
import { SignInScreen } from '../screens/sign-in/SignInScreen';
import { FullScreenLoading, lazyScreen, type LazyScreen, RouteBoundary } from '@mate/ui';

// Issue 26: the sign-in screen is the only one in the first download; each admin screen (and the
// frame around them) loads when it is opened. The analytics charts (recharts) come with analytics only.
const screens = {
  dashboard: lazyScreen(() => import('../screens/dashboard/DashboardScreen'), (m) => m.DashboardScreen),
  reports: lazyScreen(() => import('../screens/reports/ReportsScreen'), (m) => m.ReportsScreen),
  userDetail: lazyScreen(() => import('../screens/user-detail/UserDetailScreen'), (m) => m.UserDetailScreen),
  photos: lazyScreen(() => import('../screens/photos/PhotoModerationScreen'), (m) => m.PhotoModerationScreen),
  analytics: lazyScreen(() => import('../screens/analytics/AnalyticsScreen'), (m) => m.AnalyticsScreen),
  audit: lazyScreen(() => import('../screens/audit/AuditLogsScreen'), (m) => m.AuditLogsScreen),
} satisfies Record<string, LazyScreen>;

const shell = lazyScreen(() => import('../shell/AdminShell'), (m) => m.AdminShell);

interface ScreenRoute {
  path: string;
  /** Title of the route's error boundary (spec 001 §2). */
  errorTitle: string;
  screen: LazyScreen;
  /** What 'Loading...' says while the screen's code downloads. */
  loadingLabel?: string;
}

/** Spec 001 §2 route table of the admin screens. */
export const ADMIN_ROUTES: ScreenRoute[] = [
  { path: '/admin', errorTitle: 'Admin Error', screen: screens.dashboard },
  { path: '/admin/reports', errorTitle: 'Reports Error', screen: screens.reports },
  { path: '/admin/users/:userId', errorTitle: 'User Details Error', screen: screens.userDetail },
  { path: '/admin/photos', errorTitle: 'Photo Moderation Error', screen: screens.photos },
  { path: '/admin/analytics', errorTitle: 'Analytics Error', screen: screens.analytics, loadingLabel: 'Loading analytics...' },
  { path: '/admin/audit', errorTitle: 'Audit Logs Error', screen: screens.audit },
];

function bounded({ path, errorTitle, screen, loadingLabel }: ScreenRoute) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <RouteBoundary title={errorTitle}>
          <Suspense fallback={<FullScreenLoading label={loadingLabel} />}>
            <screen.Component />
          </Suspense>
        </RouteBoundary>
      }
    />
  );
}

/** Every screen's code, downloaded now (the tests' set-up: a findBy's wait is not spent compiling a screen). */
export async function preloadEveryScreen(): Promise<void> {
  await Promise.all([...Object.values(screens), shell].map((screen) => screen.preload()));
}

/**
 * Starts downloading the code of the screen at `pathname` and of the frame around it, beside the
 * session check (main.tsx calls it for the page the app opens on).
 */
export function preloadScreenFor(pathname: string): void {
  if (pathname === '/' || pathname === '/login') return;
  const route = ADMIN_ROUTES.find(({ path }) => matchPath(path, pathname));
  void shell.preload().catch(() => undefined);
  void (route?.screen ?? screens.dashboard).preload().catch(() => undefined);
}

const signIn = (
  <RouteBoundary title="Login Error">
    <PublicEntry>
      <SignInScreen onSubmitting={() => preloadScreenFor('/admin')} />
    </PublicEntry>
  </RouteBoundary>
);

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={signIn} />
      <Route path="/login" element={signIn} />
      <Route element={<RequireAdmin />}>
        <Route
          element={
            <Suspense fallback={<FullScreenLoading />}>
              <shell.Component />
            </Suspense>
          }
        >
          {ADMIN_ROUTES.map(bounded)}
        </Route>
      </Route>
      {/* Unknown paths: the admin dashboard (which sends visitors without a session to sign in). */}
      <Route path="*" element={<Navigate to="/admin" replace />} />
    </Routes>
  );
}
