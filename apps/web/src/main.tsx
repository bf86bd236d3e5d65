// The shared components' stylesheet comes with this import, before the app's own.
import { announceUnauthorized, pageSetting, readStoredToken } from '@mate/ui';
import './styles/app.css';
import { createApiClient, createSocketClient } from '@mate/api-client';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { resolveApiBase } from './app/api-base';
import { preloadScreenFor } from './app/AppRoutes';
import { browserCallDevices } from './call/browser-devices';
import { startupRequests, UNAUTHORIZED_EVENT } from './auth/AuthContext';
import { withEarlyAnswers } from './prerender/early-requests';
import { createBrowserPush } from './push/browser-push';
import { registerAppServiceWorker } from './pwa/sw-registration';
import type { SocketClientFactory } from './realtime/RealtimeContext';

const baseUrl = resolveApiBase(pageSetting('api-origin') ?? import.meta.env.VITE_API_URL, window.location);
const api = createApiClient({
  baseUrl,
  getToken: readStoredToken,
  // The session check index.html started before this code arrived is taken, not asked for again.
  fetch: withEarlyAnswers(window),
  onUnauthorized: (_error, token) => announceUnauthorized(UNAUTHORIZED_EVENT, token),
});

/** The realtime channel on the same gateway (spec 000 §7), one client per signed-in session. */
const realtime: SocketClientFactory = (session) => createSocketClient({ baseUrl, ...session });

// The session check starts now, before the first render, and the opened screen's code downloads
// beside it, not after it.
const startup = startupRequests(api);
preloadScreenFor(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The prerendered sign-in screen was inert until now (src/prerender/signed-out-start.tsx): the app
// draws its own over it.
root.inert = false;

createRoot(root).render(
  <StrictMode>
    <App api={api} realtime={realtime} calls={browserCallDevices} push={createBrowserPush()} startup={startup} />
  </StrictMode>,
);

// Every visit: the offline app shell, updates, and the registration push subscribes on (issue 26).
registerAppServiceWorker();
