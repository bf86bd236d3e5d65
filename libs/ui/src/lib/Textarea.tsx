import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cx } from './cx';

export interface TextareaProps extends ComponentPropsWithRef<'textarea'> {
  label: ReactNode;
  error?: string | null;
  /** Help text under the field, e.g. a live character counter. */
  hint?: ReactNode;
  /** Announce hint changes politely (for live counters). */
  liveHint?: boolean;
  containerClassName?: string;
}

/** A labelled multi-line field with the same hint and error wiring as `Input`. */
export function Textarea({ label, error, hint, liveHint, id, className, containerClassName, ...rest }: TextareaProps) {
  const autoId = useId();
  const fieldId = id ?? `field-${autoId}`;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  const describedBy = [rest['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('mate-field', error && 'mate-field--invalid', containerClassName)}>
      <label htmlFor={fieldId} className="mate-field__label">
        {label}
      </label>
      <textarea
        rows={4}
        {...rest}
        id={fieldId}
        className={cx('mate-input', 'mate-textarea', className)}
        aria-invalid={error ? true : rest['aria-invalid']}
        aria-describedby={describedBy}
      />
      {hint && (
        <p id={hintId} className="mate-field__hint" aria-live={liveHint ? 'polite' : undefined}>
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
