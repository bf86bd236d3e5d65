import { displayMessage, isApiError } from '@mate/api-client';
import { AuthMessages, PASSWORD_RESET_REDIRECT_DELAY } from '@mate/contracts';
import { Alert, Button, Input } from '@mate/ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/ApiContext';
import { EmailLinkCard } from '../../components/EmailLinkPage';
import { StatusPanel } from '../../components/StatusPanel';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useRedirectHomeAfter } from '../../components/useEmailLink';
import { validateNewPassword } from './reset-validation';

function useResetTokenCheck(token: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => api.auth.verifyResetToken(token as string),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

function useResetPassword() {
  const api = useApi();
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) => api.auth.resetPassword(input),
  });
}

/**
 * Why the link was refused: the server's words, else 'Invalid or expired reset link' (the
 * client's fallback), or 'Failed to validate reset link' when the server could not be reached.
 */
function invalidLinkMessage(error: unknown): string {
  if (!isApiError(error) || error.status === 0) return 'Failed to validate reset link';
  return error.message;
}

/** `/reset-password?token=…` (spec 000 §2): validating, invalid link, form, success (→ / after 3 s). */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const check = useResetTokenCheck(token);
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  useDocumentTitle('Reset Password');

  useRedirectHomeAfter(reset.isSuccess, PASSWORD_RESET_REDIRECT_DELAY);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateNewPassword(password, confirmation);
    setFormError(problem);
    if (problem || !token) return;
    reset.mutate({ token, newPassword: password });
  };

  const requestNewLink = (
    <Button size="lg" onClick={() => void navigate('/forgot-password')}>
      Request New Link
    </Button>
  );

  let content;
  if (!token) {
    content = (
      <StatusPanel tone="error" title="Invalid Link" actions={requestNewLink}>
        <p>Invalid reset link</p>
      </StatusPanel>
    );
  } else if (check.isPending) {
    content = (
      <StatusPanel tone="pending" title="Validating reset link...">
        <p>This only takes a moment.</p>
      </StatusPanel>
    );
  } else if (check.isError) {
    content = (
      <StatusPanel tone="error" title="Invalid Link" actions={requestNewLink}>
        <p>{invalidLinkMessage(check.error)}</p>
      </StatusPanel>
    );
  } else if (reset.isSuccess) {
    content = (
      <StatusPanel tone="success" title="Password Reset!">
        <p>{reset.data?.message || AuthMessages.passwordReset}</p>
        <p className="status-panel__muted">Redirecting you to sign in...</p>
      </StatusPanel>
    );
  } else {
    const error = formError ?? (reset.isError ? displayMessage(reset.error, 'Failed to reset password') : null);
    content = (
      <>
        <h1 className="auth-card__title">Choose a new password</h1>
        <p className="auth-card__subtitle">Pick something you don't use anywhere else.</p>
        {error && <Alert tone="error">{error}</Alert>}
        <form className="auth-card__form" onSubmit={onSubmit} noValidate>
          <Input
            label="New Password"
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            hint="Minimum 8 characters"
          />
          <Input
            label="Confirm Password"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
          />
          <Button type="submit" size="lg" fullWidth loading={reset.isPending}>
            Reset Password
          </Button>
        </form>
        <p className="auth-card__footer">
          <Link to="/">Back to Sign In</Link>
        </p>
      </>
    );
  }

  return <EmailLinkCard>{content}</EmailLinkCard>;
}
