import { displayMessage } from '@mate/api-client';
import { EMAIL_VERIFIED_REDIRECT_DELAY } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { useAuth } from '../../auth/AuthContext';
import { AuthLayout } from '../../components/AuthLayout';
import { StatusPanel } from '../../components/StatusPanel';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useEmailLinkVerification } from '../../components/useEmailLink';

/** `/verify-email?token=…` (spec 000 §2): verifying, then success (→ / after 2 s) or error. */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const { clearSession } = useAuth();
  const api = useApi();
  const verify = useEmailLinkVerification(
    token,
    (value: string) => api.verification.verify(value),
    EMAIL_VERIFIED_REDIRECT_DELAY,
    // The member signs in again with the verified account (spec 000 §2).
    () => clearSession(),
  );
  useDocumentTitle('Verify Email');

  const goToLogin = (
    <Button size="lg" onClick={() => void navigate('/login')}>
      Go to Login
    </Button>
  );

  let content;
  if (!token) {
    content = (
      <StatusPanel tone="error" title="Verification Failed" actions={goToLogin}>
        <p>Invalid verification link</p>
      </StatusPanel>
    );
  } else if (verify.isSuccess) {
    content = (
      <StatusPanel tone="success" title="Email Verified!">
        <p>{verify.data?.message || 'Your email address has been verified.'}</p>
        <p className="status-panel__muted">Redirecting you to sign in...</p>
      </StatusPanel>
    );
  } else if (verify.isError) {
    content = (
      <StatusPanel tone="error" title="Verification Failed" actions={goToLogin}>
        <p>{displayMessage(verify.error, 'Failed to verify email. Please try again.')}</p>
      </StatusPanel>
    );
  } else {
    content = (
      <StatusPanel tone="pending" title="Verifying your email...">
        <p>This only takes a moment.</p>
      </StatusPanel>
    );
  }

  return (
    <AuthLayout>
      <div className="mate-card mate-card--strong mate-card--pad-lg auth-card" aria-live="polite">
        {content}
      </div>
    </AuthLayout>
  );
}
