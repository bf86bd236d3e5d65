import { ClientMessages, displayMessage } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { AuthLayout } from '../../components/AuthLayout';
import { StatusPanel } from '../../components/StatusPanel';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useEmailLinkVerification } from '../../components/useEmailLink';

/**
 * `/cancel-email-change?token=…` (issue 7): opened from the notice sent to the current address
 * when someone asks to move the account to another one. Cancelling; cancelled; failure. Unlike
 * the other email-link pages it does not send the member home after a few seconds: whoever did
 * not ask for the change has to read what to do next (reset the password).
 */
export function CancelEmailChangeScreen() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const api = useApi();
  const cancel = useEmailLinkVerification(token, (value: string) => api.auth.cancelEmailChange(value), null);
  useDocumentTitle('Cancel Email Change');

  const backHome = (
    <Button size="lg" variant={cancel.isSuccess ? 'secondary' : 'primary'} onClick={() => void navigate('/')}>
      Back to Home
    </Button>
  );

  let content;
  if (!token) {
    content = (
      <StatusPanel tone="error" title="Cancellation Failed" actions={backHome}>
        <p>{AuthMessages.emailChangeCancelInvalid}</p>
      </StatusPanel>
    );
  } else if (cancel.isSuccess) {
    content = (
      <StatusPanel
        tone="success"
        title="Email Change Cancelled"
        actions={
          <>
            <Button size="lg" onClick={() => void navigate('/forgot-password')}>
              Reset Password
            </Button>
            {backHome}
          </>
        }
      >
        <p>{cancel.data?.message || AuthMessages.emailChangeCancelled}</p>
        <p className="status-panel__muted">
          If you did not ask for this change, someone else may have your password: reset it now.
        </p>
      </StatusPanel>
    );
  } else if (cancel.isError) {
    content = (
      <StatusPanel tone="error" title="Cancellation Failed" actions={backHome}>
        <p>{displayMessage(cancel.error, ClientMessages.cancelEmailChangeFailed)}</p>
      </StatusPanel>
    );
  } else {
    content = (
      <StatusPanel tone="pending" title="Cancelling the email change...">
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
