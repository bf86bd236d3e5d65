import { Icon, type IconName } from '@mate/ui';

const WELCOME_POINTS: Array<{ icon: IconName; title: string; text: string }> = [
  { icon: 'user', title: 'Tell us about you', text: 'Your name, age and what makes you, you.' },
  { icon: 'camera', title: 'Add a photo', text: 'Profiles with a photo get far more matches.' },
  { icon: 'sparkles', title: 'Get smart matches', text: 'We suggest people likely to like you back.' },
];

export function WelcomeStep() {
  return (
    <section className="onboarding__welcome" aria-labelledby="onboarding-title">
      <h1 id="onboarding-title" className="onboarding__title" tabIndex={-1}>
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
  );
}
