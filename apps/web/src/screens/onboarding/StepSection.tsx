import type { ReactNode } from 'react';

/** One wizard step: its title (the page's h1) and a line saying what it is for. */
export function StepSection({ title, lede, children }: { title: string; lede: string; children: ReactNode }) {
  return (
    <section className="onboarding__section" aria-labelledby="onboarding-title">
      <header className="onboarding__section-head">
        <h1 id="onboarding-title" className="onboarding__title" tabIndex={-1}>
          {title}
        </h1>
        <p className="onboarding__lede">{lede}</p>
      </header>
      <div className="onboarding__fields">{children}</div>
    </section>
  );
}
