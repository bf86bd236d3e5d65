import { DEFAULT_PORTS } from '@mate/contracts';
import { describe, expect, it } from 'vitest';
import { LOCAL_ADMIN_WEB_PORT, resolveAdminWebUrl } from './admin-web-url';

describe('resolveAdminWebUrl', () => {
  it('prefers VITE_ADMIN_WEB_URL, without a trailing slash', () => {
    expect(resolveAdminWebUrl('https://admin.mate.example/', { protocol: 'http:', hostname: 'localhost' })).toBe(
      'https://admin.mate.example',
    );
  });

  it('uses port 4300 on localhost and 127.0.0.1', () => {
    expect(resolveAdminWebUrl(undefined, { protocol: 'http:', hostname: 'localhost' })).toBe('http://localhost:4300');
    expect(resolveAdminWebUrl(' ', { protocol: 'http:', hostname: '127.0.0.1' })).toBe('http://127.0.0.1:4300');
    expect(LOCAL_ADMIN_WEB_PORT).toBe(DEFAULT_PORTS['admin-web']);
  });

  it('uses the admin. host beside this one elsewhere, never this origin', () => {
    expect(resolveAdminWebUrl(undefined, { protocol: 'https:', hostname: 'app.mate.example' })).toBe('https://admin.mate.example');
    expect(resolveAdminWebUrl(undefined, { protocol: 'https:', hostname: 'mate.example' })).toBe('https://admin.mate.example');
  });
});
