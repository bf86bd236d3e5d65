import { ClientMessages } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { EmailLinkPage } from '../../components/EmailLinkPage';

/**
 * `/cancel-email-change?token=…` (issue 7): opened from the notice sent to the current address
 * when someone asks to move the account to another one. Cancelling; cancelled; failure. Unlike
 * the other email-link pages it does not send the member home after a few seconds: whoever did
 * not ask for the change has to read what to do next (reset the password).
 */
export function CancelEmailChangeScreen() {
  const navigate = useNavigate();
  const api = useApi();
  const backHome = (variant: 'primary' | 'secondary') => (
    <Button size="lg" variant={variant} onClick={() => void navigate('/')}>
      Back to Home
    </Button>
  );

  return (
    <EmailLinkPage
      documentTitle="Cancel Email Change"
      send={(token: string) => api.auth.cancelEmailChange(token)}
      redirectDelay={null}
      pendingTitle="Cancelling the email change..."
      failure={{
        title: 'Cancellation Failed',
        noToken: AuthMessages.emailChangeCancelInvalid,
        fallback: ClientMessages.cancelEmailChangeFailed,
        actions: backHome('primary'),
      }}
      success={(data) => ({
        title: 'Email Change Cancelled',
        actions: (
          <>
            <Button size="lg" onClick={() => void navigate('/forgot-password')}>
              Reset Password
            </Button>
            {backHome('secondary')}
          </>
        ),
        children: (
          <>
            <p>{data.message || AuthMessages.emailChangeCancelled}</p>
            <p className="status-panel__muted">
              If you did not ask for this change, someone else may have your password: reset it now.
            </p>
          </>
        ),
      })}
    />
  );
}
