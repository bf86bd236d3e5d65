import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * The success phase of a safety dialog (spec 000 §4): once `succeed()` is called the dialog shows
 * its success texts, and after `delayMs` `then` runs (close, or close and reload). Closing the
 * dialog during that time runs `then` at once, so it always runs exactly once.
 */
export function useSuccessThen(delayMs: number, then: () => void) {
  const [succeeded, setSucceeded] = useState(false);
  const thenRef = useRef(then);
  const ran = useRef(false);
  useLayoutEffect(() => {
    thenRef.current = then;
  });

  const finish = useCallback(() => {
    if (ran.current) return;
    ran.current = true;
    thenRef.current();
  }, []);

  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(finish, delayMs);
    return () => clearTimeout(timer);
  }, [succeeded, delayMs, finish]);

  const succeed = useCallback(() => setSucceeded(true), []);
  return { succeeded, succeed, finish };
}
