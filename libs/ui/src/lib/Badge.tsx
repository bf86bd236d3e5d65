import type { ReactNode } from 'react';
import { cx } from './cx';

export interface BadgeProps {
  tone?: 'neutral' | 'accent' | 'success' | 'warning' | 'danger';
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
}

export function Badge({ tone = 'neutral', children, className, ...rest }: BadgeProps) {
  return (
    <span className={cx('mate-badge', `mate-badge--${tone}`, className)} {...rest}>
      {children}
    </span>
  );
}
