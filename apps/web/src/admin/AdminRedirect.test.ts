import { afterEach, describe, expect, it } from 'vitest';
import { adminAppUrl } from './AdminRedirect';

describe('adminAppUrl', () => {
  afterEach(() => document.head.querySelector('meta[name="mate:admin-web-url"]')?.remove());

  it('leads to the admin app the web server names in the page (ADMIN_WEB_URL), before what the build was told', () => {
    const meta = document.createElement('meta');
    meta.name = 'mate:admin-web-url';
    meta.content = 'http://127.0.0.1:4350';
    document.head.append(meta);
    expect(adminAppUrl('/admin/reports')).toBe('http://127.0.0.1:4350/admin/reports');
  });

  it('without it, leads to the admin app beside this one (port 4300 on this machine)', () => {
    expect(adminAppUrl('/admin')).toBe(`http://${window.location.hostname}:4300/admin`);
  });
});
