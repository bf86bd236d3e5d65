import { useLayoutEffect, useRef } from 'react';
import { OfflineBanner } from './OfflineBanner';
import { appServiceWorker, type AppServiceWorker } from './sw-registration';
import { UpdateBanner, useUpdateWaiting } from './UpdateBanner';
import { useOffline } from './useOffline';
import './app-status.css';

/** On <body> while a banner shows; app-status.css moves the page down by the bar's height. */
export const APP_STATUS_OPEN_CLASS = 'app-status-open';

/**
 * The app's own state, above every screen (issue 26): offline, and a new version waiting. A strip
 * at the top of the window that moves the page (top bar, sidebar, full-screen views) down by its
 * height instead of covering anything: a chat's composer, Discover's buttons and the menu all stay
 * where a member reaches for them.
 */
export function AppStatusBar({ worker = appServiceWorker() }: { worker?: AppServiceWorker | null }) {
  const offline = useOffline();
  const updateWaiting = useUpdateWaiting(worker);
  const open = offline || updateWaiting;
  const bar = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = bar.current;
    if (!open || !element) return;
    const body = document.body;
    const measure = () => body.style.setProperty('--app-status-height', `${element.getBoundingClientRect().height}px`);
    measure();
    body.classList.add(APP_STATUS_OPEN_CLASS);
    // The text wraps to more lines on a narrower window.
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('resize', measure);
      body.classList.remove(APP_STATUS_OPEN_CLASS);
      body.style.removeProperty('--app-status-height');
    };
  }, [open, offline, updateWaiting]);

  if (!open) return null;
  return (
    <div className="app-status" ref={bar}>
      {offline && <OfflineBanner />}
      {updateWaiting && worker && <UpdateBanner worker={worker} />}
    </div>
  );
}
