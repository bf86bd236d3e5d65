import type { ReactNode } from 'react';
import { cx } from './cx';

export interface AlertProps {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/** A banner. Errors are announced at once (role alert); the others politely (role status). */
export function Alert({ tone = 'info', title, children, className }: AlertProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('mate-alert', `mate-alert--${tone}`, className)}>
      {title && <p className="mate-alert__title">{title}</p>}
      {children && <div className="mate-alert__body">{children}</div>}
    </div>
  );
}
