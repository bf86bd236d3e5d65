import { PASSWORD_MIN_LENGTH, SIGNUP_MAX_AGE, SIGNUP_MIN_AGE } from '@mate/contracts';
import { Alert, Button, Icon, Input, Logo } from '@mate/ui';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { buildSignUpPayload } from './sign-up-payload';
import './sign-in.css';

type Mode = 'signin' | 'signup';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'An error occurred';
}

/**
 * `/`: one screen toggling between sign-in and sign-up (spec 000 §2). `onSubmitting` runs as the
 * form is sent: the route table starts the next screen's download then (issue 26).
 */
export function SignInScreen({ onSubmitting }: { onSubmitting?: () => void } = {}) {
  const { login, register } = useAuth();
  const [mode, setMode] = useState<Mode>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [age, setAge] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const isSignUp = mode === 'signup';
  useDocumentTitle(isSignUp ? 'Sign Up' : 'Sign In');

  const toggleMode = () => {
    setMode(isSignUp ? 'signin' : 'signup');
    setError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    onSubmitting?.();
    try {
      if (isSignUp) await register(buildSignUpPayload({ email, password, name, age }));
      else await login({ email: email.trim(), password });
      // Signed in: the route now shows 'Loading...' and then sends the member on (gating).
    } catch (err) {
      setError(messageOf(err));
      setSubmitting(false);
    }
  };

  return (
    <div className="signin">
      <main id="main-content" className="signin__layout">
        <section className="signin__hero" aria-labelledby="signin-hero-title">
          <Logo size={52} withWordmark />
          <p className="signin__eyebrow">AI-Driven Dating Platform</p>
          <h1 id="signin-hero-title" className="signin__headline">
            Meet people who actually fit your life.
          </h1>
          <p className="signin__lede">
            Mate learns what you're looking for and suggests people who are likely to like you back. Real
            conversations, video calls when you're ready, and safety tools built in.
          </p>
          <ul className="signin__points">
            <li>
              <span className="signin__point-icon" aria-hidden="true">
                <Icon name="sparkles" size={18} />
              </span>
              Suggestions ranked for both of you
            </li>
            <li>
              <span className="signin__point-icon" aria-hidden="true">
                <Icon name="messages" size={18} />
              </span>
              Chat and video calls with your matches
            </li>
            <li>
              <span className="signin__point-icon" aria-hidden="true">
                <Icon name="shield" size={18} />
              </span>
              Verified emails, blocking and reporting
            </li>
          </ul>
        </section>

        <section className="signin__panel mate-card mate-card--strong" aria-labelledby="signin-form-title">
          <h2 id="signin-form-title" className="signin__title">
            {isSignUp ? 'Create your account' : 'Welcome back'}
          </h2>
          <p className="signin__subtitle">
            {isSignUp ? 'It takes a minute. You must be 18 or older.' : 'Sign in to see your matches and messages.'}
          </p>

          {error && (
            <Alert tone="error" className="signin__error">
              {error}
            </Alert>
          )}

          <form className="signin__form" onSubmit={(event) => void onSubmit(event)}>
            <Input
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              hint={isSignUp ? "Use a real address: we'll send you a verification link." : undefined}
            />
            <Input
              label="Password"
              type="password"
              name="password"
              autoComplete={isSignUp ? 'new-password' : 'current-password'}
              required
              minLength={isSignUp ? PASSWORD_MIN_LENGTH : undefined}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              hint={isSignUp ? 'Minimum 8 characters' : undefined}
            />
            {isSignUp && (
              <div className="signin__row">
                <Input
                  label="Name"
                  optional
                  name="name"
                  autoComplete="given-name"
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                />
                <Input
                  label="Age"
                  optional
                  type="number"
                  name="age"
                  inputMode="numeric"
                  min={SIGNUP_MIN_AGE}
                  max={SIGNUP_MAX_AGE}
                  value={age}
                  onChange={(event) => setAge(event.target.value)}
                />
              </div>
            )}
            {!isSignUp && (
              <Link to="/forgot-password" className="signin__forgot">
                Forgot password?
              </Link>
            )}
            <Button type="submit" size="lg" fullWidth loading={submitting}>
              {isSignUp ? 'Sign Up' : 'Sign In'}
            </Button>
          </form>

          <p className="signin__switch">
            {isSignUp ? 'Already a member?' : 'New to Mate?'}{' '}
            <button type="button" className="signin__switch-button" onClick={toggleMode}>
              {isSignUp ? 'I already have an account' : 'Create an account'}
            </button>
          </p>
        </section>
      </main>
    </div>
  );
}
