import { Alert, Button, Card, Input, Logo } from '@mate/ui';
import { useState, type FormEvent } from 'react';
import { NotAdminError, useAuth } from '../../auth/AuthContext';
import { useMemberAppUrl } from '../../browser/AdminBrowser';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { messageOf } from '../../lib/format';

/** `/` and `/login`: the admin app's own sign-in (email and password against POST /api/auth/login). */
export function SignInScreen({ onSubmitting }: { onSubmitting?: () => void } = {}) {
  useDocumentTitle('Admin Sign In');
  const { login } = useAuth();
  const memberApp = useMemberAppUrl('/dashboard');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notAdmin, setNotAdmin] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setNotAdmin(false);
    setSubmitting(true);
    onSubmitting?.();
    try {
      await login({ email: email.trim(), password });
      // Signed in as an admin: the route now sends the admin to /admin.
    } catch (err) {
      if (err instanceof NotAdminError) setNotAdmin(true);
      else setError(messageOf(err, 'An error occurred'));
      setSubmitting(false);
    }
  };

  return (
    <div className="admin-signin">
      <main id="main-content" className="admin-signin__main">
        <div className="admin-signin__brand">
          <Logo size={48} withWordmark />
          <span className="admin-topbar__tag">Admin</span>
        </div>
        <Card tone="strong" padding="lg" className="admin-signin__card">
          <h1 className="admin-signin__title">Admin Sign In</h1>
          <p className="admin-signin__subtitle">Platform moderation and management</p>
          {error && <Alert tone="error">{error}</Alert>}
          {notAdmin && (
            <Alert tone="warning" title="This account does not have admin access.">
              <a href={memberApp}>Go to the member app</a>
            </Alert>
          )}
          <form className="admin-signin__form" onSubmit={(event) => void onSubmit(event)} noValidate>
            <Input
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Input
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <Button type="submit" size="lg" fullWidth loading={submitting} disabled={!email.trim() || !password}>
              Sign In
            </Button>
          </form>
        </Card>
      </main>
    </div>
  );
}
