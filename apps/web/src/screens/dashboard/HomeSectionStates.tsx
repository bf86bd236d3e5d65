import { Button, Icon, Spinner } from '@mate/ui';
import type { ReactNode } from 'react';

/** A section still loading: one spinner with what it waits for. */
export function SectionLoading({ label }: { label: string }) {
  return (
    <div className="home__state">
      <Spinner size="sm" label={label} />
    </div>
  );
}

/** A section that could not load: a short line and a retry; the rest of the home stays usable. */
export function SectionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="home__state home__state--error" role="alert">
      <p>{message}</p>
      <Button variant="secondary" icon={<Icon name="refresh" size={16} />} onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** A section with nothing to show: one calm line and, where it helps, the way onwards. */
export function SectionEmpty({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="home__state">
      <p className="home__empty">{children}</p>
      {action}
    </div>
  );
}
