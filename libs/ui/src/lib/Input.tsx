import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cx } from './cx';

export interface InputProps extends Omit<ComponentPropsWithRef<'input'>, 'size'> {
  label: ReactNode;
  /** Shown under the field and announced with it; marks the field invalid. */
  error?: string | null;
  /** Help text under the field, e.g. 'Minimum 8 characters'. */
  hint?: ReactNode;
  /** Adds '(optional)' after the label. */
  optional?: boolean;
  containerClassName?: string;
}

export function Input({ label, error, hint, optional, id, className, containerClassName, ...rest }: InputProps) {
  const autoId = useId();
  const inputId = id ?? `field-${autoId}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [rest['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('mate-field', error && 'mate-field--invalid', containerClassName)}>
      <label htmlFor={inputId} className="mate-field__label">
        {label}
        {optional && (
          <span className="mate-field__optional" aria-hidden="true">
            {' '}
            (optional)
          </span>
        )}
      </label>
      <input
        {...rest}
        id={inputId}
        className={cx('mate-input', className)}
        aria-invalid={error ? true : rest['aria-invalid']}
        aria-describedby={describedBy}
      />
      {hint && (
        <p id={hintId} className="mate-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mate-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
