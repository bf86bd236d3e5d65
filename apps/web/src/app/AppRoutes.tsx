import { WEB_ROUTES } from '@mate/contracts';
import type { ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AdminRedirect } from '../admin/AdminRedirect';
import { PushNavigation } from '../push/PushContext';
import { PublicEntry, RequireActiveProfile, RequireAdmin, RequireSignedIn } from '../routing/guards';
import { AccountScreen } from '../screens/account/AccountScreen';
import { CallScreen } from '../screens/call/CallScreen';
import { CallHistoryScreen } from '../screens/calls/CallHistoryScreen';
import { ChatScreen } from '../screens/chat/ChatScreen';
import { CancelEmailChangeScreen } from '../screens/cancel-email-change/CancelEmailChangeScreen';
import { DashboardScreen } from '../screens/dashboard/DashboardScreen';
import { DiscoverScreen } from '../screens/discover/DiscoverScreen';
import { FiltersScreen } from '../screens/filters/FiltersScreen';
import { ForgotPasswordScreen } from '../screens/forgot-password/ForgotPasswordScreen';
import { MessagesScreen } from '../screens/messages/MessagesScreen';
import { NotificationSettingsScreen } from '../screens/notifications/NotificationSettingsScreen';
import { OnboardingScreen } from '../screens/onboarding/OnboardingScreen';
import { PreferencesScreen } from '../screens/preferences/PreferencesScreen';
import { PrivacyScreen } from '../screens/privacy/PrivacyScreen';
import { ProfileScreen } from '../screens/profile/ProfileScreen';
import { ResetPasswordScreen } from '../screens/reset-password/ResetPasswordScreen';
import { SafetyScreen } from '../screens/safety/SafetyScreen';
import { SessionsScreen } from '../screens/sessions/SessionsScreen';
import { SignInScreen } from '../screens/sign-in/SignInScreen';
import { VerifyEmailChangeScreen } from '../screens/verify-email-change/VerifyEmailChangeScreen';
import { VerifyEmailPromptScreen } from '../screens/verify-email-prompt/VerifyEmailPromptScreen';
import { VerifyEmailScreen } from '../screens/verify-email/VerifyEmailScreen';
import { AppShell } from '../shell/AppShell';
import { RouteBoundary } from '@mate/ui';

interface ScreenRoute {
  path: string;
  /** Title of the route's error boundary (spec 000 §2). */
  errorTitle: string;
  element: ReactNode;
}

/** Guarded member routes: verified and onboarded only. */
const GUARDED: ScreenRoute[] = [
  { path: '/dashboard', errorTitle: 'Dashboard Error', element: <DashboardScreen /> },
  { path: '/discover', errorTitle: 'Discover Error', element: <DiscoverScreen /> },
  { path: '/matches', errorTitle: 'Messages Error', element: <MessagesScreen /> },
  { path: '/chat/:userId', errorTitle: 'Chat Error', element: <ChatScreen /> },
  { path: '/call/:userId', errorTitle: 'Call Error', element: <CallScreen /> },
  { path: '/calls', errorTitle: 'Call History Error', element: <CallHistoryScreen /> },
  { path: '/preferences', errorTitle: 'Preferences Error', element: <PreferencesScreen /> },
  { path: '/profile', errorTitle: 'Profile Error', element: <ProfileScreen /> },
  { path: '/safety', errorTitle: 'Safety Error', element: <SafetyScreen /> },
  { path: '/settings/notifications', errorTitle: 'Notifications Error', element: <NotificationSettingsScreen /> },
  { path: '/settings/filters', errorTitle: 'Filters Error', element: <FiltersScreen /> },
  { path: '/settings/sessions', errorTitle: 'Sessions Error', element: <SessionsScreen /> },
  { path: '/settings/privacy', errorTitle: 'Privacy Error', element: <PrivacyScreen /> },
  { path: '/settings/account', errorTitle: 'Account Error', element: <AccountScreen /> },
];

/** Signed-in routes without the profile guard (spec 000 §2): the admin screens guard themselves. */
const UNGUARDED: ScreenRoute[] = [
  { path: '/verify-email-prompt', errorTitle: 'Email Verification Error', element: <VerifyEmailPromptScreen /> },
  { path: '/onboarding', errorTitle: 'Onboarding Error', element: <OnboardingScreen /> },
  // Issue 13: the admin screens are the admin app's (its own origin); admins are sent there.
  {
    path: '/admin/*',
    errorTitle: 'Admin Error',
    element: (
      <RequireAdmin>
        <AdminRedirect />
      </RequireAdmin>
    ),
  },
];

const PUBLIC: ScreenRoute[] = [
  { path: '/verify-email', errorTitle: 'Verify Email Error', element: <VerifyEmailScreen /> },
  { path: '/forgot-password', errorTitle: 'Forgot Password Error', element: <ForgotPasswordScreen /> },
  { path: '/reset-password', errorTitle: 'Reset Password Error', element: <ResetPasswordScreen /> },
  { path: '/verify-email-change', errorTitle: 'Email Change Error', element: <VerifyEmailChangeScreen /> },
  { path: WEB_ROUTES.cancelEmailChange, errorTitle: 'Email Change Error', element: <CancelEmailChangeScreen /> },
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

/** The route table of spec 000 §2 and 001 §2. */
export function AppRoutes() {
  return (
    <>
      <PushNavigation />
      <Routes>
        <Route path="/" element={signIn} />
        {/* The spec sends people to /login (Back to Login, account deletion): the same screen. */}
        <Route path="/login" element={signIn} />
        {PUBLIC.map(bounded)}

        <Route element={<RequireSignedIn />}>
          <Route element={<AppShell />}>{UNGUARDED.map(bounded)}</Route>
          <Route element={<RequireActiveProfile />}>
            <Route element={<AppShell />}>
              {GUARDED.map(bounded)}
              <Route path="*" element={<Navigate to="/dashboard" replace />} />
            </Route>
          </Route>
        </Route>
      </Routes>
    </>
  );
}
