import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';

export interface ChipProps extends Omit<ComponentPropsWithRef<'button'>, 'type'> {
  /**
   * Set (true or false) for a toggle: announced as pressed or not (`aria-pressed`) and painted in
   * the accent when on. Left out, the chip is a plain action button (e.g. 'add this interest').
   */
  selected?: boolean;
}

/** A pill-shaped toggle button (interests, option lists, gender choices). 44 px high. */
export function Chip({ selected, className, children, ...rest }: ChipProps) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      className={cx('mate-chip', selected && 'mate-chip--selected', className)}
      {...rest}
    >
      {children}
    </button>
  );
}
