import type { ReactNode } from 'react';
import { cx } from './cx';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  /** Heading level of the title; 2 by default. */
  titleLevel?: 1 | 2 | 3;
  className?: string;
}

export function EmptyState({ icon, title, description, action, titleLevel = 2, className }: EmptyStateProps) {
  const Heading = (`h${titleLevel}` as 'h1' | 'h2' | 'h3');
  return (
    <div className={cx('mate-empty', className)}>
      {icon && (
        <div className="mate-empty__icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <Heading className="mate-empty__title">{title}</Heading>
      {description && <p className="mate-empty__description">{description}</p>}
      {action && <div className="mate-empty__action">{action}</div>}
    </div>
  );
}
