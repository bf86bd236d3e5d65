/**
 * Rejects with `message` when `promise` has not settled within `ms`, and clears its timer either
 * way. For waits nothing else bounds: BullMQ waits forever for a connection that never became
 * ready (Redis down at start-up), and a readiness check or a metrics source must not hang.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  // The abandoned promise may still reject later; that must not become an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
