import { EMAIL_VERIFIED_REDIRECT_DELAY } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useAuth } from '../../auth/AuthContext';
import { EmailLinkPage } from '../../components/EmailLinkPage';

/** `/verify-email?token=…` (spec 000 §2): verifying, then success (→ / after 2 s) or error. */
export function VerifyEmailScreen() {
  const navigate = useNavigate();
  const { clearSession } = useAuth();
  const api = useApi();

  return (
    <EmailLinkPage
      documentTitle="Verify Email"
      send={(token: string) => api.verification.verify(token)}
      redirectDelay={EMAIL_VERIFIED_REDIRECT_DELAY}
      // The member signs in again with the verified account (spec 000 §2).
      onSuccess={() => clearSession()}
      pendingTitle="Verifying your email..."
      failure={{
        title: 'Verification Failed',
        noToken: 'Invalid verification link',
        fallback: 'Failed to verify email. Please try again.',
        actions: (
          <Button size="lg" onClick={() => void navigate('/login')}>
            Go to Login
          </Button>
        ),
      }}
      success={(data) => ({
        title: 'Email Verified!',
        children: (
          <>
            <p>{data.message || 'Your email address has been verified.'}</p>
            <p className="status-panel__muted">Redirecting you to sign in...</p>
          </>
        ),
      })}
    />
  );
}
