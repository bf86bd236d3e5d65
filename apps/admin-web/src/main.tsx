// The shared components' stylesheet comes with this import, before the app's own.
import { announceUnauthorized, pageSetting, readStoredToken } from '@mate/ui';
import './styles/admin.css';
import { createAdminApiClient } from '@mate/api-client';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadScreenFor } from './app/AppRoutes';
import { resolveApiBase, resolveMemberWebUrl } from './app/origins';
import { UNAUTHORIZED_EVENT } from './auth/AuthContext';
import { windowBrowser } from './browser/AdminBrowser';

const api = createAdminApiClient({
  baseUrl: resolveApiBase(pageSetting('api-origin') ?? import.meta.env.VITE_API_URL, window.location),
  getToken: readStoredToken,
  onUnauthorized: (_error, token) => announceUnauthorized(UNAUTHORIZED_EVENT, token),
});
const environment = {
  browser: windowBrowser,
  memberWebUrl: resolveMemberWebUrl(pageSetting('member-web-url') ?? import.meta.env.VITE_MEMBER_WEB_URL, window.location),
};

// The opened screen's code downloads beside the session check, not after it.
preloadScreenFor(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App api={api} environment={environment} />
  </StrictMode>,
);
