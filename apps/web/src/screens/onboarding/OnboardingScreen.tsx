import { Button, Card, EmptyState, Icon, Spinner, type IconName } from '@mate/ui';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { ONBOARDING_STEPS } from './steps';
import { useCompleteOnboarding } from './useCompleteOnboarding';

const WELCOME_POINTS: Array<{ icon: IconName; title: string; text: string }> = [
  { icon: 'user', title: 'Tell us about you', text: 'Your name, age and what makes you, you.' },
  { icon: 'camera', title: 'Add a photo', text: 'Profiles with a photo get far more matches.' },
  { icon: 'sparkles', title: 'Get smart matches', text: 'We suggest people likely to like you back.' },
];

/**
 * `/onboarding`. This slice builds the Welcome step, the progress indicator and 'Skip for now';
 * the later steps say they are not available yet.
 */
export function OnboardingScreen() {
  const { refreshProfile, updateProfile } = useAuth();
  const navigate = useNavigate();
  const complete = useCompleteOnboarding();
  const [checking, setChecking] = useState(true);
  const [step, setStep] = useState(0);
  useDocumentTitle('Onboarding');

  // Spec 000 §4: on entry the profile is fetched; completed → /dashboard; unverified → prompt.
  useEffect(() => {
    let active = true;
    refreshProfile()
      .then((profile) => {
        if (!active) return;
        if (profile.onboardingCompleted) void navigate('/dashboard', { replace: true });
        else if (!profile.isVerified) void navigate('/verify-email-prompt', { replace: true });
      })
      .catch(() => {
        // Could not check: show the wizard with what we know.
      })
      .finally(() => {
        if (active) setChecking(false);
      });
    return () => {
      active = false;
    };
  }, [refreshProfile, navigate]);

  const skip = () => {
    complete.mutate(undefined, {
      onSuccess: async () => {
        updateProfile({ onboardingCompleted: true });
        try {
          await refreshProfile();
        } catch {
          // The server has it; the local flag above is enough to leave the wizard.
        }
        await navigate('/dashboard', { replace: true });
      },
      onError: () => window.alert('Failed to skip. Please try again.'),
    });
  };

  if (checking) {
    return (
      <div className="screen screen--narrow screen--center">
        <Spinner size="lg" label="Loading..." showLabel />
      </div>
    );
  }

  const isLast = step === ONBOARDING_STEPS.length - 1;
  const stepName = ONBOARDING_STEPS[step];

  return (
    <div className="screen screen--medium">
      <Card tone="strong" padding="lg" className="onboarding">
        <div className="onboarding__progress">
          <p className="onboarding__count">
            Step {step + 1} of {ONBOARDING_STEPS.length}
          </p>
          <div
            className="onboarding__bar"
            role="progressbar"
            aria-label="Onboarding progress"
            aria-valuemin={1}
            aria-valuemax={ONBOARDING_STEPS.length}
            aria-valuenow={step + 1}
            aria-valuetext={`Step ${step + 1} of ${ONBOARDING_STEPS.length}: ${stepName}`}
          >
            <span style={{ width: `${((step + 1) / ONBOARDING_STEPS.length) * 100}%` }} />
          </div>
          <ol className="onboarding__steps">
            {ONBOARDING_STEPS.map((name, index) => (
              <li
                key={name}
                className={
                  index === step
                    ? 'onboarding__step onboarding__step--current'
                    : index < step
                      ? 'onboarding__step onboarding__step--done'
                      : 'onboarding__step'
                }
                aria-current={index === step ? 'step' : undefined}
              >
                <span className="onboarding__step-dot" aria-hidden="true">
                  {index < step ? <Icon name="check" size={14} /> : index + 1}
                </span>
                <span className="onboarding__step-name">{name}</span>
              </li>
            ))}
          </ol>
        </div>

        {step === 0 ? (
          <section className="onboarding__welcome" aria-labelledby="onboarding-title">
            <h1 id="onboarding-title" className="onboarding__title">
              Welcome to Mate!
            </h1>
            <p className="onboarding__lede">
              Let's set up your profile so we can find people you'll click with. It takes about three minutes.
            </p>
            <ul className="onboarding__points">
              {WELCOME_POINTS.map((point) => (
                <li key={point.title}>
                  <span className="onboarding__point-icon" aria-hidden="true">
                    <Icon name={point.icon} size={22} />
                  </span>
                  <span>
                    <strong>{point.title}</strong>
                    <span className="onboarding__point-text">{point.text}</span>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : (
          <section aria-labelledby="onboarding-title">
            <EmptyState
              titleLevel={1}
              icon={<Icon name="clock" size={32} />}
              title={<span id="onboarding-title">{stepName}</span>}
              description="This step is not available yet. You can skip for now and complete your profile later."
            />
          </section>
        )}

        <div className="onboarding__footer">
          <Button variant="secondary" onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
            Back
          </Button>
          <div className="onboarding__footer-end">
            <Button variant="ghost" onClick={skip} loading={complete.isPending}>
              Skip for now
            </Button>
            {isLast ? (
              <Button disabled title="Not available yet">
                Complete
              </Button>
            ) : (
              <Button onClick={() => setStep((s) => s + 1)}>Next</Button>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}
