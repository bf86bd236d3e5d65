import {
  SWIPE_LABEL_THRESHOLD_PX,
  SWIPE_OPACITY_RANGE_PX,
  SWIPE_ROTATION_DIVISOR,
  SWIPE_THRESHOLD_PX,
} from '@mate/contracts';

/** Right is a like, left a pass (spec 000 §4). */
export type SwipeDirection = 'left' | 'right';

/** Spec 000 §4: rotation in degrees is the horizontal offset divided by 20. */
export function swipeRotation(offset: number): number {
  return offset / SWIPE_ROTATION_DIVISOR;
}

/** Spec 000 §4: the card fades with the offset, gone at 500 px. */
export function swipeOpacity(offset: number): number {
  return Math.max(0, 1 - Math.abs(offset) / SWIPE_OPACITY_RANGE_PX);
}

/** Spec 000 §4: LIKE beyond 50 px right, NOPE beyond 50 px left, nothing in between. */
export function swipeLabel(offset: number): 'LIKE' | 'NOPE' | null {
  if (offset > SWIPE_LABEL_THRESHOLD_PX) return 'LIKE';
  if (offset < -SWIPE_LABEL_THRESHOLD_PX) return 'NOPE';
  return null;
}

/** Spec 000 §4: released more than 100 px right is a like, more than 100 px left a pass; else it snaps back. */
export function swipeDecision(offset: number): SwipeDirection | null {
  if (offset > SWIPE_THRESHOLD_PX) return 'right';
  if (offset < -SWIPE_THRESHOLD_PX) return 'left';
  return null;
}

/** The card's transform for an offset: follow the pointer, tilted. */
export function swipeTransform(offset: number): string {
  return `translateX(${offset}px) rotate(${swipeRotation(offset)}deg)`;
}
