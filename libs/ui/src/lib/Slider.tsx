import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cx } from './cx';

export interface SliderProps extends Omit<ComponentPropsWithRef<'input'>, 'type' | 'value' | 'onChange' | 'size'> {
  label: ReactNode;
  value: number;
  min: number;
  max: number;
  step?: number;
  onValueChange: (value: number) => void;
  /** How the value reads, e.g. `50 km`; also used as `aria-valuetext`. */
  format?: (value: number) => string;
  hint?: ReactNode;
  containerClassName?: string;
}

/** A labelled range input showing its current value; the filled part of the track follows it. */
export function Slider({
  label,
  value,
  min,
  max,
  step = 1,
  onValueChange,
  format = String,
  hint,
  id,
  className,
  containerClassName,
  style,
  ...rest
}: SliderProps) {
  const autoId = useId();
  const inputId = id ?? `field-${autoId}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const percent = max > min ? ((Math.min(max, Math.max(min, value)) - min) / (max - min)) * 100 : 0;
  const text = format(value);
  return (
    <div className={cx('mate-field', 'mate-slider', containerClassName)}>
      <div className="mate-slider__row">
        <label htmlFor={inputId} className="mate-field__label">
          {label}
        </label>
        <output htmlFor={inputId} className="mate-slider__value" aria-hidden="true">
          {text}
        </output>
      </div>
      <input
        {...rest}
        id={inputId}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={text}
        aria-describedby={[rest['aria-describedby'], hintId].filter(Boolean).join(' ') || undefined}
        onChange={(event) => onValueChange(Number(event.target.value))}
        className={cx('mate-slider__input', className)}
        style={{ ...style, ['--mate-slider-fill' as string]: `${percent}%` }}
      />
      {hint && (
        <p id={hintId} className="mate-field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
