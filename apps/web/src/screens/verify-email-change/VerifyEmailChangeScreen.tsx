import { displayMessage } from '@mate/api-client';
import { EMAIL_CHANGE_REDIRECT_DELAY } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { AuthLayout } from '../../components/AuthLayout';
import { StatusPanel } from '../../components/StatusPanel';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useEmailLinkVerification } from '../../components/useEmailLink';

/** `/verify-email-change?token=…` (spec 001 §2): verifying; success (→ / after 3 s); failure. */
export function VerifyEmailChangeScreen() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const api = useApi();
  const verify = useEmailLinkVerification(
    token,
    (value: string) => api.auth.verifyEmailChange(value),
    EMAIL_CHANGE_REDIRECT_DELAY,
  );
  useDocumentTitle('Confirm Email Change');

  const backHome = (
    <Button size="lg" onClick={() => void navigate('/')}>
      Back to Home
    </Button>
  );

  let content;
  if (!token) {
    content = (
      <StatusPanel tone="error" title="Email Change Failed" actions={backHome}>
        <p>Invalid verification link</p>
      </StatusPanel>
    );
  } else if (verify.isSuccess) {
    content = (
      <StatusPanel tone="success" title="Email Changed!">
        <p>
          Your email address is now <strong>{verify.data?.newEmail}</strong>.
        </p>
        <p className="status-panel__muted">Redirecting you to the home page...</p>
      </StatusPanel>
    );
  } else if (verify.isError) {
    content = (
      <StatusPanel tone="error" title="Email Change Failed" actions={backHome}>
        <p>{displayMessage(verify.error, 'Failed to verify email change')}</p>
      </StatusPanel>
    );
  } else {
    content = (
      <StatusPanel tone="pending" title="Verifying your new email...">
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
