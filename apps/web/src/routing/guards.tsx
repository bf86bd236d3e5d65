import type { ProfileDto } from '@mate/contracts';
import { Button, Card, FullScreenLoading, Icon } from '@mate/ui';
import { useState, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext';

/** Spec 000 §4 user gating: unverified, then verified with onboarding incomplete, then active. */
export function homePathFor(profile: ProfileDto | null): string {
  if (profile && !profile.isVerified) return '/verify-email-prompt';
  if (profile && !profile.onboardingCompleted) return '/onboarding';
  return '/dashboard';
}

/**
 * `/` (and its alias `/login`): the sign-in screen when signed out; when signed in, wherever the
 * gating says, after the profile has loaded.
 */
export function PublicEntry({ children }: { children: ReactNode }) {
  const { initializing, user, profile, profileStatus } = useAuth();
  if (initializing) return <FullScreenLoading />;
  if (!user) return <>{children}</>;
  if (!profile && profileStatus !== 'error') return <FullScreenLoading />;
  return <Navigate to={homePathFor(profile)} replace />;
}

/** Everything that is not public: signed-out visitors go to `/` (to /login after deleting the account). */
export function RequireSignedIn() {
  const { initializing, user, signedOutPath } = useAuth();
  if (initializing) return <FullScreenLoading />;
  if (!user) return <Navigate to={signedOutPath} replace />;
  return <Outlet />;
}

/**
 * The guarded routes: 'Loading...' full screen until the profile is there; unverified →
 * /verify-email-prompt; onboarding incomplete → /onboarding.
 */
export function RequireActiveProfile() {
  const { profile, profileStatus } = useAuth();
  if (!profile) {
    return profileStatus === 'error' ? <ProfileUnavailable /> : <FullScreenLoading />;
  }
  if (!profile.isVerified) return <Navigate to="/verify-email-prompt" replace />;
  if (!profile.onboardingCompleted) return <Navigate to="/onboarding" replace />;
  return <Outlet />;
}

/** Admin screens guard themselves (spec 001 §2): non-admins go to /dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

/** The profile could not be loaded twice in a row: offer a retry instead of spinning forever. */
function ProfileUnavailable() {
  const { refreshProfile, logout } = useAuth();
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await refreshProfile();
    } catch {
      // The error state stays; the button can be pressed again.
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div className="app-fullscreen">
      <Card tone="strong" padding="lg" className="app-fullscreen__card">
        <div className="route-error__icon" aria-hidden="true">
          <Icon name="alert" size={30} />
        </div>
        <h1 className="route-error__title">We couldn't load your profile</h1>
        <p className="route-error__text">Check your connection and try again.</p>
        <div className="route-error__actions">
          <Button onClick={() => void retry()} loading={retrying}>
            Try Again
          </Button>
          <Button variant="secondary" onClick={() => void logout()}>
            Sign Out
          </Button>
        </div>
      </Card>
    </div>
  );
}
