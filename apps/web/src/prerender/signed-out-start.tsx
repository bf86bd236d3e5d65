// The first screen of a visitor without a session, drawn at build time (issue 26): the build
// (tools/vite/build-plugins.ts, prerender) renders this module on Node and puts its markup and
// script into index.html, so `/` shows the sign-in screen at its first paint instead of after the
// app's code has arrived and run. The app then draws the same screen over it.
import { AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { createApiClient } from '@mate/api-client';
import { renderToStaticMarkup } from 'react-dom/server';
import { App } from '../app/App';

/** The paths that open on the sign-in screen (spec 000 §2: / and /login). */
export const SIGNED_OUT_START_PATHS = ['/', '/login'] as const;

/** The sign-in screen as the app draws it at `/` for a visitor without a stored session. */
export function markup(): string {
  // Nothing is called while drawing: the visitor has no session, and effects do not run here.
  const api = createApiClient({ baseUrl: 'http://prerender.invalid', getToken: () => null });
  return renderToStaticMarkup(<App api={api} at="/" />);
}

/**
 * Runs in the page before its first paint, right after the root element: on a start path, without
 * a stored token, the prerendered screen replaces the 'Loading...' view (a member with a session
 * keeps that view: they are on their way to the dashboard). The copy is inert until the app draws
 * over it, so nothing typed into it before the code arrives is lost. Plain ES5, no imports: inline.
 */
export function script(templateId: string): string {
  const paths = JSON.stringify(SIGNED_OUT_START_PATHS);
  const keys = JSON.stringify([AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY]);
  return (
    `(function(){try{var t=document.getElementById(${JSON.stringify(templateId)}),r=document.getElementById('root');` +
    `if(!t||!r||${paths}.indexOf(location.pathname)<0)return;` +
    `var k=${keys};for(var i=0;i<k.length;i++)if(localStorage.getItem(k[i]))return;` +
    `r.replaceChildren(t.content.cloneNode(true));r.inert=true}catch(e){}})()`
  );
}
