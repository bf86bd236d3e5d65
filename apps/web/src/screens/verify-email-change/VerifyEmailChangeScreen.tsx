import { EMAIL_CHANGE_REDIRECT_DELAY } from '@mate/contracts';
import { Button } from '@mate/ui';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { EmailLinkPage } from '../../components/EmailLinkPage';

/** `/verify-email-change?token=…` (spec 001 §2): verifying; success (→ / after 3 s); failure. */
export function VerifyEmailChangeScreen() {
  const navigate = useNavigate();
  const api = useApi();

  return (
    <EmailLinkPage
      documentTitle="Confirm Email Change"
      send={(token: string) => api.auth.verifyEmailChange(token)}
      redirectDelay={EMAIL_CHANGE_REDIRECT_DELAY}
      pendingTitle="Verifying your new email..."
      failure={{
        title: 'Email Change Failed',
        noToken: 'Invalid verification link',
        fallback: 'Failed to verify email change',
        actions: (
          <Button size="lg" onClick={() => void navigate('/')}>
            Back to Home
          </Button>
        ),
      }}
      success={(data) => ({
        title: 'Email Changed!',
        children: (
          <>
            <p>
              Your email address is now <strong>{data.newEmail}</strong>.
            </p>
            <p className="status-panel__muted">Redirecting you to the home page...</p>
          </>
        ),
      })}
    />
  );
}
