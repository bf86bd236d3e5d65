import { buttonClassName } from '@mate/ui';
import { useState, useSyncExternalStore } from 'react';
import type { AppServiceWorker } from './sw-registration';

const noSubscription = () => () => undefined;

/** Whether a new build's worker is installed and waiting (always false without a worker). */
export function useUpdateWaiting(worker: AppServiceWorker | null): boolean {
  return useSyncExternalStore(
    worker ? worker.subscribe : noSubscription,
    () => worker?.updateWaiting() ?? false,
    () => false,
  );
}

/** "A new version is available — Reload" (issue 26), while a new build's worker waits. */
export function UpdateBanner({ worker }: { worker: AppServiceWorker }) {
  const [reloading, setReloading] = useState(false);
  return (
    <div className="app-status__banner app-status__banner--update" role="status">
      <span>A new version is available</span>
      <button
        type="button"
        className={buttonClassName({ variant: 'secondary' })}
        disabled={reloading}
        aria-busy={reloading || undefined}
        onClick={() => {
          setReloading(true);
          worker.applyUpdate();
        }}
      >
        Reload
      </button>
    </div>
  );
}
