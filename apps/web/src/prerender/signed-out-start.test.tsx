import { AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { markup, script } from './signed-out-start';

const TEMPLATE_ID = 'signed-out-start';

/** The page as index.html has it: the 'Loading...' view in #root, the prerender's template beside it. */
function pageAt(pathname: string): HTMLElement {
  window.history.replaceState(null, '', pathname);
  document.body.innerHTML = `<div id="root"><span>Loading...</span></div><template id="${TEMPLATE_ID}">${markup()}</template>`;
  return document.getElementById('root') as HTMLElement;
}

/** Runs the inline script as the page would, before its first paint. */
const runScript = () => new Function(script(TEMPLATE_ID))();

describe('the signed-out start (prerendered into index.html by the build)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('draws the sign-in screen as the app does at /, with no style attribute (the CSP refuses them)', () => {
    const html = markup();
    const page = document.createElement('div');
    page.innerHTML = html;
    expect(page.querySelector('h1')?.textContent).toBe('Meet people who actually fit your life.');
    expect(page.querySelector('input[type="email"]')).not.toBeNull();
    expect(page.querySelector('input[type="password"]')).not.toBeNull();
    expect([...page.querySelectorAll('button')].map((b) => b.textContent)).toContain('Sign In');
    expect(html).not.toMatch(/\sstyle="/);
  });

  it.each(['/', '/login'])('on %s without a stored session: the sign-in screen replaces Loading..., inert until the app draws', (path) => {
    const root = pageAt(path);
    runScript();
    expect(root.querySelector('#signin-hero-title')).not.toBeNull();
    expect(root.textContent).not.toContain('Loading...');
    expect(root.inert).toBe(true);
  });

  it.each([AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY])('keeps Loading... for a member with a session (%s stored): they are on their way in', (key) => {
    window.localStorage.setItem(key, 'a-token');
    const root = pageAt('/');
    runScript();
    expect(root.textContent).toBe('Loading...');
    expect(root.inert).not.toBe(true);
  });

  it('keeps Loading... on every other path (/dashboard, /verify-email)', () => {
    for (const path of ['/dashboard', '/verify-email']) {
      const root = pageAt(path);
      runScript();
      expect(root.textContent).toBe('Loading...');
    }
  });
});
