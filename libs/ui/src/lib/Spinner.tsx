import { cx } from './cx';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Read by screen readers; also shown when `showLabel` is set. Empty: purely decorative. */
  label?: string;
  showLabel?: boolean;
  className?: string;
}

export function Spinner({ size = 'md', label = 'Loading...', showLabel = false, className }: SpinnerProps) {
  if (!label) {
    return (
      <span aria-hidden="true" className={cx('mate-spinner', `mate-spinner--${size}`, className)}>
        <span className="mate-spinner__ring" />
      </span>
    );
  }
  return (
    <span role="status" className={cx('mate-spinner', `mate-spinner--${size}`, className)}>
      <span className="mate-spinner__ring" aria-hidden="true" />
      <span className={showLabel ? 'mate-spinner__label' : 'mate-visually-hidden'}>{label}</span>
    </span>
  );
}
