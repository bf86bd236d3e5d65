import { useId, type ReactNode } from 'react';
import { cx } from './cx';

export interface ProgressBarProps {
  /** Names the bar, e.g. 'Profile 60% complete'. */
  label: ReactNode;
  /** 0–100. */
  value: number;
  /** Shows the label above the bar (otherwise it is only read out). */
  showLabel?: boolean;
  className?: string;
}

/** A labelled meter of how far something is done. */
export function ProgressBar({ label, value, showLabel = true, className }: ProgressBarProps) {
  const labelId = useId();
  const clamped = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div className={cx('mate-progress', className)}>
      <span id={labelId} className={showLabel ? 'mate-progress__label' : 'mate-visually-hidden'}>
        {label}
      </span>
      <div
        className="mate-progress__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
      >
        <span className="mate-progress__fill" style={{ width: `${clamped}%` }} />
      </div>
    </div>
  );
}
