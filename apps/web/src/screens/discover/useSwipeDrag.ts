import { useCallback, useRef, useState, type MouseEvent, type PointerEvent } from 'react';
import { swipeDecision, type SwipeDirection } from './swipe';

/**
 * Movement under which a press is a tap (photo navigation), not a drag. The pointer is captured
 * only past it, so a tap still clicks the photo area's buttons.
 */
const TAP_SLOP_PX = 6;

interface DragStart {
  pointerId: number;
  x: number;
}

/**
 * Dragging the card with a mouse or a finger (pointer events): the offset follows the pointer, and
 * on release past the threshold `onDecide` gets the direction, else the card snaps back.
 */
export function useSwipeDrag({
  onDecide,
  disabled,
}: {
  onDecide: (direction: SwipeDirection) => void;
  disabled: boolean;
}) {
  const [offset, setOffset] = useState(0);
  const [dragging, setDragging] = useState(false);
  const start = useRef<DragStart | null>(null);
  // Set by a drag, so the click its release produces does not also turn the photo.
  const dragged = useRef(false);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLElement>) => {
      if (disabled || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
      start.current = { pointerId: event.pointerId, x: event.clientX };
      dragged.current = false;
    },
    [disabled],
  );

  const onPointerMove = useCallback((event: PointerEvent<HTMLElement>) => {
    const from = start.current;
    if (!from || event.pointerId !== from.pointerId) return;
    const dx = event.clientX - from.x;
    if (!dragged.current) {
      if (Math.abs(dx) < TAP_SLOP_PX) return;
      dragged.current = true;
      setDragging(true);
      event.currentTarget.setPointerCapture?.(event.pointerId);
    }
    setOffset(dx);
  }, []);

  const onPointerUp = useCallback(
    (event: PointerEvent<HTMLElement>) => {
      const from = start.current;
      if (!from || event.pointerId !== from.pointerId) return;
      start.current = null;
      if (!dragged.current) return;
      setDragging(false);
      const direction = swipeDecision(event.clientX - from.x);
      if (direction) onDecide(direction);
      else setOffset(0);
    },
    [onDecide],
  );

  const onPointerCancel = useCallback(() => {
    start.current = null;
    dragged.current = false;
    setDragging(false);
    setOffset(0);
  }, []);

  const onClickCapture = useCallback((event: MouseEvent<HTMLElement>) => {
    if (!dragged.current) return;
    dragged.current = false;
    event.preventDefault();
    event.stopPropagation();
  }, []);

  return {
    offset,
    dragging,
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel, onClickCapture },
  };
}
