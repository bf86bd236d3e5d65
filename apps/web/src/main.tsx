import '@mate/ui';
import './styles/app.css';
import { createApiClient, createSocketClient } from '@mate/api-client';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { resolveApiBase } from './app/api-base';
import { readStoredToken } from './auth/auth-storage';
import { browserCallDevices } from './call/browser-devices';
import { UNAUTHORIZED_EVENT } from './auth/AuthContext';
import { createBrowserPush } from './push/browser-push';
import type { SocketClientFactory } from './realtime/RealtimeContext';

const baseUrl = resolveApiBase(import.meta.env.VITE_API_URL, window.location);
const api = createApiClient({
  baseUrl,
  getToken: readStoredToken,
  onUnauthorized: (_error, token) => {
    window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token } }));
  },
});

/** The realtime channel on the same gateway (spec 000 §7), one client per signed-in session. */
const realtime: SocketClientFactory = (session) => createSocketClient({ baseUrl, ...session });

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App api={api} realtime={realtime} calls={browserCallDevices} push={createBrowserPush()} />
  </StrictMode>,
);
