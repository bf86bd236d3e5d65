import { useId, type ReactNode } from 'react';
import { cx } from './cx';

export interface CardProps {
  title?: ReactNode;
  /** Heading level of the title; 2 by default. */
  titleLevel?: 2 | 3;
  description?: ReactNode;
  /** Shown on the right of the title row. */
  actions?: ReactNode;
  icon?: ReactNode;
  /** `strong` is more opaque, for text-heavy content and forms. */
  tone?: 'default' | 'strong' | 'accent';
  padding?: 'md' | 'lg';
  as?: 'section' | 'div' | 'article';
  className?: string;
  children?: ReactNode;
}

/** A frosted glass panel. With a title it is a labelled region. */
export function Card({
  title,
  titleLevel = 2,
  description,
  actions,
  icon,
  tone = 'default',
  padding = 'md',
  as: Tag = 'section',
  className,
  children,
}: CardProps) {
  const titleId = useId();
  const Heading = titleLevel === 2 ? 'h2' : 'h3';
  return (
    <Tag
      className={cx('mate-card', `mate-card--${tone}`, `mate-card--pad-${padding}`, className)}
      aria-labelledby={title ? titleId : undefined}
    >
      {(title || actions) && (
        <header className="mate-card__header">
          {icon && (
            <span className="mate-card__icon" aria-hidden="true">
              {icon}
            </span>
          )}
          <div className="mate-card__titles">
            {title && (
              <Heading id={titleId} className="mate-card__title">
                {title}
              </Heading>
            )}
            {description && <p className="mate-card__description">{description}</p>}
          </div>
          {actions && <div className="mate-card__actions">{actions}</div>}
        </header>
      )}
      {children}
    </Tag>
  );
}
