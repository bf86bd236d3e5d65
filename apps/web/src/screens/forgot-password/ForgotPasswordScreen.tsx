import { displayMessage } from '@mate/api-client';
import { AuthMessages } from '@mate/contracts';
import { Alert, Button, Input } from '@mate/ui';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { AuthLayout } from '../../components/AuthLayout';
import { StatusPanel } from '../../components/StatusPanel';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import './forgot-password.css';

function useForgotPassword() {
  const api = useApi();
  return useMutation({ mutationFn: (email: string) => api.auth.forgotPassword(email) });
}

/** `/forgot-password` (spec 000 §2): an email form, then 'Check Your Email'. */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const request = useForgotPassword();
  useDocumentTitle('Forgot Password');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    request.mutate(email.trim());
  };

  return (
    <AuthLayout>
      <div className="mate-card mate-card--strong mate-card--pad-lg auth-card">
        {request.isSuccess ? (
          <StatusPanel
            tone="info"
            title="Check Your Email"
            actions={
              <Link to="/" className="auth-card__link">
                Back to Sign In
              </Link>
            }
          >
            {/* Neutral on purpose: it never says whether the account exists. */}
            <p>{AuthMessages.forgotPasswordSent}</p>
            <p className="status-panel__muted">The link expires in 15 minutes.</p>
          </StatusPanel>
        ) : (
          <>
            <h1 className="auth-card__title">Forgot your password?</h1>
            <p className="auth-card__subtitle">
              Enter the email address of your account and we'll send you a link to choose a new password.
            </p>
            {request.isError && (
              <Alert tone="error">{displayMessage(request.error, 'Failed to send reset email')}</Alert>
            )}
            <form className="auth-card__form" onSubmit={onSubmit}>
              <Input
                label="Email"
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
              <Button type="submit" size="lg" fullWidth loading={request.isPending}>
                Send Reset Link
              </Button>
            </form>
            <p className="auth-card__footer">
              Remembered it? <Link to="/">Back to Sign In</Link>
            </p>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
