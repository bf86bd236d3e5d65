import { SECOND, formatCallTimer } from '@mate/contracts';
import { useEffect, useState } from 'react';

const secondsSince = (answeredAt: number) => (Date.now() - answeredAt) / SECOND;

/**
 * The call's mm:ss (spec 000 §2): time since `answeredAt`, '00:00' before the answer. While
 * `running` it turns over on each whole second of the call (not of the clock), so it never lags
 * behind; once stopped (the call ended) it keeps the last time shown.
 */
export function useCallTimer(answeredAt: number | null, running: boolean): string {
  const [seconds, setSeconds] = useState(() =>
    running && answeredAt !== null ? secondsSince(answeredAt) : 0,
  );

  useEffect(() => {
    if (answeredAt === null || !running) return;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const elapsed = secondsSince(answeredAt);
      setSeconds(elapsed);
      const intoSecond = ((elapsed % 1) + 1) % 1;
      timeout = setTimeout(tick, Math.ceil((1 - intoSecond) * SECOND));
    };
    tick();
    return () => clearTimeout(timeout);
  }, [answeredAt, running]);

  return formatCallTimer(seconds);
}
