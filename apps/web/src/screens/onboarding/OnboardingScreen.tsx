import { Button, Card, Icon, Spinner } from '@mate/ui';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { AboutStep } from './AboutStep';
import { BasicInfoStep } from './BasicInfoStep';
import { answersFrom, canLeaveStep, completionRequestOf, type OnboardingAnswers } from './onboarding-form';
import { PhotoStep } from './PhotoStep';
import { PreferencesStep } from './PreferencesStep';
import { ONBOARDING_STEPS } from './steps';
import { useCompleteOnboarding } from './useCompleteOnboarding';
import { WelcomeStep } from './WelcomeStep';
import './onboarding.css';

/** Spec 000 §8 alerts. */
export const OnboardingAlerts = {
  completeFailed: 'Failed to complete onboarding. Please try again.',
  skipFailed: 'Failed to skip. Please try again.',
} as const;

const GATE_HINTS: Partial<Record<(typeof ONBOARDING_STEPS)[number], string>> = {
  'Basic Info': 'Enter your name, an age of 18 or more and your gender to continue.',
  Photo: 'Upload a photo to continue.',
  'About You': 'Write a bio of at least 20 characters and add at least one interest to continue.',
  Preferences: "Choose what you're looking for and enter your location to finish.",
};

/**
 * `/onboarding` (spec 000 §2, §4): the 5-step wizard with its progress indicator, Back, Next
 * (Complete on the last step) and 'Skip for now'. Each step lets the member on only when its
 * answers are there; Complete sends them all and lands on /discover.
 */
export function OnboardingScreen() {
  const { user, profile, refreshProfile, updateProfile } = useAuth();
  const navigate = useNavigate();
  const complete = useCompleteOnboarding();
  const [checking, setChecking] = useState(true);
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<OnboardingAnswers | null>(null);
  const [action, setAction] = useState<'skip' | 'complete' | null>(null);
  const headingFocus = useRef(false);
  useDocumentTitle('Onboarding');

  // Spec 000 §4: on entry the profile is fetched; completed → /dashboard; unverified → prompt.
  useEffect(() => {
    let active = true;
    refreshProfile()
      .then((fresh) => {
        if (!active) return;
        if (fresh.onboardingCompleted) void navigate('/dashboard', { replace: true });
        else if (!fresh.isVerified) void navigate('/verify-email-prompt', { replace: true });
        else setAnswers((current) => current ?? answersFrom(fresh, user?.name));
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
  }, [refreshProfile, navigate, user?.name]);

  // A new step takes the focus to its title, so keyboard and screen reader users start there.
  useEffect(() => {
    if (!headingFocus.current) return;
    document.getElementById('onboarding-title')?.focus();
  }, [step]);

  const form = answers ?? answersFrom(profile, user?.name);
  const change = (patch: Partial<OnboardingAnswers>) => setAnswers({ ...form, ...patch });

  const leaveWizard = async (to: string) => {
    updateProfile({ onboardingCompleted: true });
    try {
      await refreshProfile();
    } catch {
      // The server has it; the local flag above is enough to leave the wizard.
    }
    await navigate(to, { replace: true });
  };

  const skip = () => {
    setAction('skip');
    complete.mutate(undefined, {
      onSuccess: () => leaveWizard('/dashboard'),
      onError: () => window.alert(OnboardingAlerts.skipFailed),
    });
  };

  const finish = () => {
    setAction('complete');
    complete.mutate(completionRequestOf(form), {
      onSuccess: () => leaveWizard('/discover'),
      onError: () => window.alert(OnboardingAlerts.completeFailed),
    });
  };

  const go = (to: number) => {
    headingFocus.current = true;
    setStep(to);
  };

  if (checking) {
    return (
      <div className="screen screen--narrow screen--center">
        <Spinner size="lg" label="Loading..." showLabel />
      </div>
    );
  }

  const stepName = ONBOARDING_STEPS[step];
  const isLast = step === ONBOARDING_STEPS.length - 1;
  const canGoOn = canLeaveStep(stepName, form);
  const gateHint = canGoOn ? null : GATE_HINTS[stepName];

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

        <div className="onboarding__body" key={stepName}>
          {stepName === 'Welcome' && <WelcomeStep />}
          {stepName === 'Basic Info' && <BasicInfoStep answers={form} onChange={change} />}
          {stepName === 'Photo' && (
            <PhotoStep
              photos={form.photos}
              onUploaded={(photo) =>
                setAnswers((current) => {
                  const base = current ?? form;
                  return { ...base, photos: [...base.photos.filter((p) => p.id !== photo.id), photo] };
                })
              }
            />
          )}
          {stepName === 'About You' && <AboutStep answers={form} onChange={change} />}
          {stepName === 'Preferences' && <PreferencesStep answers={form} onChange={change} />}
        </div>

        {gateHint && (
          <p className="onboarding__gate" id="onboarding-gate">
            {gateHint}
          </p>
        )}

        <div className="onboarding__footer">
          <Button variant="secondary" onClick={() => go(Math.max(0, step - 1))} disabled={step === 0}>
            Back
          </Button>
          <div className="onboarding__footer-end">
            <Button
              variant="ghost"
              onClick={skip}
              loading={complete.isPending && action === 'skip'}
              disabled={complete.isPending}
            >
              Skip for now
            </Button>
            {isLast ? (
              <Button
                onClick={finish}
                disabled={!canGoOn || complete.isPending}
                loading={complete.isPending && action === 'complete'}
                aria-describedby={gateHint ? 'onboarding-gate' : undefined}
              >
                Complete
              </Button>
            ) : (
              <Button
                onClick={() => go(step + 1)}
                disabled={!canGoOn}
                aria-describedby={gateHint ? 'onboarding-gate' : undefined}
              >
                Next
              </Button>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}
