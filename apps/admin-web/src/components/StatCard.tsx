import { Card, Icon, type IconName } from '@mate/ui';
import { useId, type ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  /** The line under the value ("12 active", "Needs attention"). */
  detail?: ReactNode;
  icon: IconName;
  tone?: 'default' | 'warning' | 'success' | 'danger';
}

/** One statistic card of the admin screens' grid (4 columns on large screens, spec 001 §9). */
export function StatCard({ label, value, detail, icon, tone = 'default' }: StatCardProps) {
  const labelId = useId();
  return (
    <Card as="article" className={`stat-card stat-card--${tone}`}>
      <div className="stat-card__row" role="group" aria-labelledby={labelId}>
        <div>
          <p id={labelId} className="stat-card__label">
            {label}
          </p>
          <p className="stat-card__value">{value}</p>
          {detail !== undefined && <p className="stat-card__detail">{detail}</p>}
        </div>
        <span className="stat-card__icon" aria-hidden="true">
          <Icon name={icon} size={22} />
        </span>
      </div>
    </Card>
  );
}
