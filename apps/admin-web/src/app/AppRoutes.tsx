import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullScreenLoading } from '../components/FullScreenLoading';
import { PublicEntry, RequireAdmin } from '../routing/guards';
import { AuditLogsScreen } from '../screens/audit/AuditLogsScreen';
import { DashboardScreen } from '../screens/dashboard/DashboardScreen';
import { PhotoModerationScreen } from '../screens/photos/PhotoModerationScreen';
import { ReportsScreen } from '../screens/reports/ReportsScreen';
import { SignInScreen } from '../screens/sign-in/SignInScreen';
import { UserDetailScreen } from '../screens/user-detail/UserDetailScreen';
import { AdminShell } from '../shell/AdminShell';
import { RouteBoundary } from '@mate/ui';

// The charts (recharts) are most of the bundle: loaded when the analytics screen opens.
const AnalyticsScreen = lazy(async () => ({ default: (await import('../screens/analytics/AnalyticsScreen')).AnalyticsScreen }));

interface ScreenRoute {
  path: string;
  /** Title of the route's error boundary (spec 001 §2). */
  errorTitle: string;
  element: ReactNode;
}

/** Spec 001 §2 route table of the admin screens. */
export const ADMIN_ROUTES: ScreenRoute[] = [
  { path: '/admin', errorTitle: 'Admin Error', element: <DashboardScreen /> },
  { path: '/admin/reports', errorTitle: 'Reports Error', element: <ReportsScreen /> },
  { path: '/admin/users/:userId', errorTitle: 'User Details Error', element: <UserDetailScreen /> },
  { path: '/admin/photos', errorTitle: 'Photo Moderation Error', element: <PhotoModerationScreen /> },
  {
    path: '/admin/analytics',
    errorTitle: 'Analytics Error',
    element: (
      <Suspense fallback={<FullScreenLoading label="Loading analytics..." />}>
        <AnalyticsScreen />
      </Suspense>
    ),
  },
  { path: '/admin/audit', errorTitle: 'Audit Logs Error', element: <AuditLogsScreen /> },
];

function bounded({ path, errorTitle, element }: ScreenRoute) {
  return <Route key={path} path={path} element={<RouteBoundary title={errorTitle}>{element}</RouteBoundary>} />;
}

const signIn = (
  <RouteBoundary title="Login Error">
    <PublicEntry>
      <SignInScreen />
    </PublicEntry>
  </RouteBoundary>
);

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={signIn} />
      <Route path="/login" element={signIn} />
      <Route element={<RequireAdmin />}>
        <Route element={<AdminShell />}>{ADMIN_ROUTES.map(bounded)}</Route>
      </Route>
      {/* Unknown paths: the admin dashboard (which sends visitors without a session to sign in). */}
      <Route path="*" element={<Navigate to="/admin" replace />} />
    </Routes>
  );
}
