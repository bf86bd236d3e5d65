import { cx } from '@mate/ui';
import { useId, type ReactNode } from 'react';

export interface SwitchProps {
  label: ReactNode;
  /** One line under the label, read with the switch. */
  description?: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
}

/** An on/off setting: a button with role switch, named by its label (Space and Enter toggle it). */
export function Switch({ label, description, checked, onChange, disabled }: SwitchProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className="switch-row">
      <div className="switch-row__text">
        <span id={labelId} className="switch-row__label">
          {label}
        </span>
        {description && (
          <span id={descriptionId} className="switch-row__description">
            {description}
          </span>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        disabled={disabled}
        className={cx('switch', checked && 'switch--on')}
        onClick={() => onChange(!checked)}
      >
        <span className="switch__thumb" aria-hidden="true" />
      </button>
    </div>
  );
}
