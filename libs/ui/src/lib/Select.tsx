import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cx } from './cx';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends Omit<ComponentPropsWithRef<'select'>, 'size'> {
  label: ReactNode;
  options: readonly SelectOption[];
  /** A first, empty choice ('Select...'): the value '' means nothing chosen. */
  placeholder?: string;
  error?: string | null;
  hint?: ReactNode;
  containerClassName?: string;
}

/** A labelled native select, styled like `Input`, with the same hint and error wiring. */
export function Select({
  label,
  options,
  placeholder,
  error,
  hint,
  id,
  className,
  containerClassName,
  ...rest
}: SelectProps) {
  const autoId = useId();
  const selectId = id ?? `field-${autoId}`;
  const hintId = hint ? `${selectId}-hint` : undefined;
  const errorId = error ? `${selectId}-error` : undefined;
  const describedBy = [rest['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('mate-field', error && 'mate-field--invalid', containerClassName)}>
      <label htmlFor={selectId} className="mate-field__label">
        {label}
      </label>
      <select
        {...rest}
        id={selectId}
        className={cx('mate-input', 'mate-select', className)}
        aria-invalid={error ? true : rest['aria-invalid']}
        aria-describedby={describedBy}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
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
