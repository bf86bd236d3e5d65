import { displayMessage } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { Alert, Button, Card, Icon, Spinner } from '@mate/ui';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResendVerification } from './useResendVerification';
import './verify-email-prompt.css';

/** `/verify-email-prompt` (spec 000 §2): waits for the member to open the emailed link. */
export function VerifyEmailPromptScreen() {
  const { user, refreshProfile, logout, leaveTo } = useAuth();
  const navigate = useNavigate();
  const resend = useResendVerification();
  const [checking, setChecking] = useState(true);
  useDocumentTitle('Verify Your Email');

  useEffect(() => {
    let active = true;
    refreshProfile()
      .then((profile) => {
        if (active && profile.isVerified) void navigate('/dashboard', { replace: true });
      })
      .catch(() => {
        // The check failed: the prompt still shows (spec 000 §2).
      })
      .finally(() => {
        if (active) setChecking(false);
      });
    return () => {
      active = false;
    };
  }, [refreshProfile, navigate]);

  // Spec 000 §2: clears the stored session and goes to /login. The signed-out guard takes the
  // member there, in the same render as the sign-out (a navigate after it would race its Navigate to /).
  const backToLogin = () => {
    leaveTo('/login');
    void logout();
  };

  if (checking) {
    return (
      <div className="screen screen--narrow screen--center">
        <Spinner size="lg" label="Loading..." showLabel />
      </div>
    );
  }

  return (
    <div className="screen screen--narrow">
      <Card tone="strong" padding="lg" className="prompt-card">
        <div className="prompt-card__icon" aria-hidden="true">
          <Icon name="mail" size={34} />
        </div>
        <h1 className="prompt-card__title">Verify Your Email</h1>
        <p className="prompt-card__text">
          We sent a verification link to {user?.email ? <strong>{user.email}</strong> : 'your email address'}. Open
          it to activate your account and start meeting people.
        </p>
        <p className="prompt-card__hint">Can't find it? Check your spam folder, or send a new link.</p>

        {resend.isSuccess && (
          <Alert tone="success">{resend.data?.message || AuthMessages.verificationSent}</Alert>
        )}
        {resend.isError && (
          <Alert tone="error">{displayMessage(resend.error, 'Failed to send verification email')}</Alert>
        )}

        <div className="prompt-card__actions">
          <Button size="lg" fullWidth loading={resend.isPending} onClick={() => resend.mutate()}>
            Resend Verification Email
          </Button>
          <Button size="lg" variant="secondary" fullWidth onClick={backToLogin}>
            Back to Login
          </Button>
        </div>
      </Card>
    </div>
  );
}
