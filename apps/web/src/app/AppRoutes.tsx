import { WEB_ROUTES } from '@mate/contracts';
import { Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, matchPath } from 'react-router-dom';
import { PushNavigation } from '../push/PushContext';
import { PublicEntry, RequireActiveProfile, RequireAdmin, RequireSignedIn } from '../routing/guards';
import { SignInScreen } from '../screens/sign-in/SignInScreen';
import { FullScreenLoading, lazyScreen, type LazyScreen, RouteBoundary } from '@mate/ui';
import { ScreenLoading } from '../components/ScreenLoading';

// Issue 26: the sign-in screen is the only one in the first download; every other screen (and the
// signed-in frame) loads when its route is opened. Vite makes a chunk of each import() below.
const screens = {
  dashboard: lazyScreen(() => import('../screens/dashboard/DashboardScreen'), (m) => m.DashboardScreen),
  discover: lazyScreen(() => import('../screens/discover/DiscoverScreen'), (m) => m.DiscoverScreen),
  messages: lazyScreen(() => import('../screens/messages/MessagesScreen'), (m) => m.MessagesScreen),
  chat: lazyScreen(() => import('../screens/chat/ChatScreen'), (m) => m.ChatScreen),
  call: lazyScreen(() => import('../screens/call/CallScreen'), (m) => m.CallScreen),
  calls: lazyScreen(() => import('../screens/calls/CallHistoryScreen'), (m) => m.CallHistoryScreen),
  preferences: lazyScreen(() => import('../screens/preferences/PreferencesScreen'), (m) => m.PreferencesScreen),
  profile: lazyScreen(() => import('../screens/profile/ProfileScreen'), (m) => m.ProfileScreen),
  safety: lazyScreen(() => import('../screens/safety/SafetyScreen'), (m) => m.SafetyScreen),
  notifications: lazyScreen(
    () => import('../screens/notifications/NotificationSettingsScreen'),
    (m) => m.NotificationSettingsScreen,
  ),
  filters: lazyScreen(() => import('../screens/filters/FiltersScreen'), (m) => m.FiltersScreen),
  sessions: lazyScreen(() => import('../screens/sessions/SessionsScreen'), (m) => m.SessionsScreen),
  privacy: lazyScreen(() => import('../screens/privacy/PrivacyScreen'), (m) => m.PrivacyScreen),
  account: lazyScreen(() => import('../screens/account/AccountScreen'), (m) => m.AccountScreen),
  verifyEmailPrompt: lazyScreen(
    () => import('../screens/verify-email-prompt/VerifyEmailPromptScreen'),
    (m) => m.VerifyEmailPromptScreen,
  ),
  onboarding: lazyScreen(() => import('../screens/onboarding/OnboardingScreen'), (m) => m.OnboardingScreen),
  adminRedirect: lazyScreen(() => import('../admin/AdminRedirect'), (m) => m.AdminRedirect),
  verifyEmail: lazyScreen(() => import('../screens/verify-email/VerifyEmailScreen'), (m) => m.VerifyEmailScreen),
  forgotPassword: lazyScreen(
    () => import('../screens/forgot-password/ForgotPasswordScreen'),
    (m) => m.ForgotPasswordScreen,
  ),
  resetPassword: lazyScreen(() => import('../screens/reset-password/ResetPasswordScreen'), (m) => m.ResetPasswordScreen),
  verifyEmailChange: lazyScreen(
    () => import('../screens/verify-email-change/VerifyEmailChangeScreen'),
    (m) => m.VerifyEmailChangeScreen,
  ),
  cancelEmailChange: lazyScreen(
    () => import('../screens/cancel-email-change/CancelEmailChangeScreen'),
    (m) => m.CancelEmailChangeScreen,
  ),
} satisfies Record<string, LazyScreen>;

/** The signed-in frame (navigation, call bar, match popup): not needed to sign in. */
const shell = lazyScreen(() => import('../shell/AppShell'), (m) => m.AppShell);

interface ScreenRoute {
  path: string;
  /** Title of the route's error boundary (spec 000 §2). */
  errorTitle: string;
  screen: LazyScreen;
  /** Wraps the screen (the admin guard). */
  wrap?: (screen: ReactNode) => ReactNode;
}

/** Guarded member routes: verified and onboarded only. */
const GUARDED: ScreenRoute[] = [
  { path: '/dashboard', errorTitle: 'Dashboard Error', screen: screens.dashboard },
  { path: '/discover', errorTitle: 'Discover Error', screen: screens.discover },
  { path: '/matches', errorTitle: 'Messages Error', screen: screens.messages },
  { path: '/chat/:userId', errorTitle: 'Chat Error', screen: screens.chat },
  { path: '/call/:userId', errorTitle: 'Call Error', screen: screens.call },
  { path: '/calls', errorTitle: 'Call History Error', screen: screens.calls },
  { path: '/preferences', errorTitle: 'Preferences Error', screen: screens.preferences },
  { path: '/profile', errorTitle: 'Profile Error', screen: screens.profile },
  { path: '/safety', errorTitle: 'Safety Error', screen: screens.safety },
  { path: '/settings/notifications', errorTitle: 'Notifications Error', screen: screens.notifications },
  { path: '/settings/filters', errorTitle: 'Filters Error', screen: screens.filters },
  { path: '/settings/sessions', errorTitle: 'Sessions Error', screen: screens.sessions },
  { path: '/settings/privacy', errorTitle: 'Privacy Error', screen: screens.privacy },
  { path: '/settings/account', errorTitle: 'Account Error', screen: screens.account },
];

/** Signed-in routes without the profile guard (spec 000 §2): the admin screens guard themselves. */
const UNGUARDED: ScreenRoute[] = [
  { path: '/verify-email-prompt', errorTitle: 'Email Verification Error', screen: screens.verifyEmailPrompt },
  { path: '/onboarding', errorTitle: 'Onboarding Error', screen: screens.onboarding },
  // Issue 13: the admin screens are the admin app's (its own origin); admins are sent there.
  {
    path: '/admin/*',
    errorTitle: 'Admin Error',
    screen: screens.adminRedirect,
    wrap: (screen) => <RequireAdmin>{screen}</RequireAdmin>,
  },
];

const PUBLIC: ScreenRoute[] = [
  { path: '/verify-email', errorTitle: 'Verify Email Error', screen: screens.verifyEmail },
  { path: '/forgot-password', errorTitle: 'Forgot Password Error', screen: screens.forgotPassword },
  { path: '/reset-password', errorTitle: 'Reset Password Error', screen: screens.resetPassword },
  { path: '/verify-email-change', errorTitle: 'Email Change Error', screen: screens.verifyEmailChange },
  { path: WEB_ROUTES.cancelEmailChange, errorTitle: 'Email Change Error', screen: screens.cancelEmailChange },
];

/** A screen's route: its error boundary, and 'Loading...' in its place while its code downloads. */
function bounded({ path, errorTitle, screen, wrap }: ScreenRoute, loading: ReactNode) {
  const element = (
    <Suspense fallback={loading}>
      <screen.Component />
    </Suspense>
  );
  return <Route key={path} path={path} element={<RouteBoundary title={errorTitle}>{wrap ? wrap(element) : element}</RouteBoundary>} />;
}

const inShell = (route: ScreenRoute) => bounded(route, <ScreenLoading />);
const fullScreen = (route: ScreenRoute) => bounded(route, <FullScreenLoading />);

const signIn = (
  <RouteBoundary title="Login Error">
    <PublicEntry>
      <SignInScreen onSubmitting={preloadSignedInHome} />
    </PublicEntry>
  </RouteBoundary>
);

const signedInFrame = (
  <Suspense fallback={<FullScreenLoading />}>
    <shell.Component />
  </Suspense>
);

/** Every screen's code, downloaded now (the tests' set-up: a findBy's wait is not spent compiling a screen). */
export async function preloadEveryScreen(): Promise<void> {
  await Promise.all([...Object.values(screens), shell].map((screen) => screen.preload()));
}

/**
 * Starts downloading the code of the screen at `pathname` (and the signed-in frame around it), so
 * it arrives while the session is checked rather than after (main.tsx calls it for the page the app
 * opens on). Unknown paths of a signed-in member end on the dashboard: that is what they preload.
 */
export function preloadScreenFor(pathname: string): void {
  if (pathname === '/' || pathname === '/login') return;
  const publicRoute = PUBLIC.find(({ path }) => matchPath(path, pathname));
  if (publicRoute) {
    void publicRoute.screen.preload().catch(() => undefined);
    return;
  }
  const route = [...GUARDED, ...UNGUARDED].find(({ path }) => matchPath(path, pathname));
  void shell.preload().catch(() => undefined);
  void (route?.screen ?? screens.dashboard).preload().catch(() => undefined);
}

/** After a sign-in the member lands on the dashboard: its code comes while the credentials are checked. */
export function preloadSignedInHome(): void {
  preloadScreenFor('/dashboard');
}

/** The route table of spec 000 §2 and 001 §2. */
export function AppRoutes() {
  return (
    <>
      <PushNavigation />
      <Routes>
        <Route path="/" element={signIn} />
        {/* The spec sends people to /login (Back to Login, account deletion): the same screen. */}
        <Route path="/login" element={signIn} />
        {PUBLIC.map(fullScreen)}

        <Route element={<RequireSignedIn />}>
          <Route element={signedInFrame}>{UNGUARDED.map(inShell)}</Route>
          <Route element={<RequireActiveProfile />}>
            <Route element={signedInFrame}>
              {GUARDED.map(inShell)}
              <Route path="*" element={<Navigate to="/dashboard" replace />} />
            </Route>
          </Route>
        </Route>
      </Routes>
    </>
  );
}
