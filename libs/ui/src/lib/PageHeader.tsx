import './PageHeader.css';
import { buttonClassName } from './Button';
import { Icon } from './icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A back button to a fixed place (spec back targets). */
  back?: { to: string; label: string };
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, back, actions }: PageHeaderProps) {
  return (
    <header className="page-header">
      {back && (
        <Link to={back.to} className={buttonClassName({ variant: 'ghost', className: 'page-header__back' })}>
          <Icon name="arrow-left" size={18} />
          {back.label}
        </Link>
      )}
      <div className="page-header__row">
        <div className="page-header__titles">
          <h1 className="page-header__title">{title}</h1>
          {subtitle && <p className="page-header__subtitle">{subtitle}</p>}
        </div>
        {actions && <div className="page-header__actions">{actions}</div>}
      </div>
    </header>
  );
}
