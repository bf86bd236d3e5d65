import { Icon, Spinner, type IconName } from '@mate/ui';
import type { ReactNode } from 'react';
import './auth-pages.css';

export interface StatusPanelProps {
  tone: 'pending' | 'success' | 'error' | 'info';
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  icon?: IconName;
}

const defaultIcons: Record<Exclude<StatusPanelProps['tone'], 'pending'>, IconName> = {
  success: 'check',
  error: 'alert',
  info: 'mail',
};

/** The verifying / success / failure views of the email-link pages. */
export function StatusPanel({ tone, title, children, actions, icon }: StatusPanelProps) {
  return (
    <div className={`status-panel status-panel--${tone}`}>
      <div className="status-panel__icon" aria-hidden="true">
        {tone === 'pending' ? <Spinner size="lg" label="" /> : <Icon name={icon ?? defaultIcons[tone]} size={32} />}
      </div>
      <h1 className="status-panel__title">{title}</h1>
      {children && <div className="status-panel__body">{children}</div>}
      {actions && <div className="status-panel__actions">{actions}</div>}
    </div>
  );
}
