import '@mate/ui';
import './styles/app.css';
import { createApiClient } from '@mate/api-client';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { resolveApiBase } from './app/api-base';
import { readStoredToken } from './auth/auth-storage';
import { UNAUTHORIZED_EVENT } from './auth/AuthContext';

const api = createApiClient({
  baseUrl: resolveApiBase(import.meta.env.VITE_API_URL, window.location),
  getToken: readStoredToken,
  onUnauthorized: (_error, token) => {
    window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token } }));
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App api={api} />
  </StrictMode>,
);
