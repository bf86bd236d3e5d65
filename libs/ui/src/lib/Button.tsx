import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
/** md is 44 px high, lg 48 px (spec 000 §9); there is deliberately no smaller size. */
export type ButtonSize = 'md' | 'lg';

export interface ButtonStyleOptions {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  className?: string;
}

/** The button look, for links that should look like buttons. */
export function buttonClassName({ variant = 'primary', size = 'md', fullWidth, className }: ButtonStyleOptions = {}) {
  return cx('mate-btn', `mate-btn--${variant}`, `mate-btn--${size}`, fullWidth && 'mate-btn--block', className);
}

export interface ButtonProps extends ComponentPropsWithRef<'button'>, ButtonStyleOptions {
  /** Shows a spinner, disables the button and marks it busy. */
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant,
  size,
  fullWidth,
  loading = false,
  icon,
  className,
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClassName({ variant, size, fullWidth, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <span className="mate-btn__spinner" aria-hidden="true" />
      ) : icon ? (
        <span className="mate-btn__icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {children}
    </button>
  );
}
