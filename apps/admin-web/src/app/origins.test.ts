import { DEFAULT_PORTS } from '@mate/contracts';
import { describe, expect, it } from 'vitest';
import { LOCAL_GATEWAY_PORT, LOCAL_MEMBER_WEB_PORT, resolveApiBase, resolveMemberWebUrl } from './origins';

describe('resolveApiBase', () => {
  it('prefers VITE_API_URL, without a trailing slash or /api', () => {
    expect(resolveApiBase('https://api.mate.example/', { protocol: 'https:', hostname: 'localhost' })).toBe(
      'https://api.mate.example',
    );
    expect(resolveApiBase('http://gw:3000/api', { protocol: 'http:', hostname: 'x' })).toBe('http://gw:3000');
  });

  it('uses the gateway port on localhost, the api. sibling of an admin. host, and the same origin elsewhere', () => {
    expect(resolveApiBase(undefined, { protocol: 'http:', hostname: 'localhost' })).toBe('http://localhost:3000');
    expect(resolveApiBase(' ', { protocol: 'http:', hostname: '127.0.0.1' })).toBe('http://127.0.0.1:3000');
    expect(resolveApiBase(undefined, { protocol: 'https:', hostname: 'admin.mate.example' })).toBe('https://api.mate.example');
    expect(resolveApiBase(undefined, { protocol: 'https:', hostname: 'mate-admin.example' })).toBe('');
  });
});

describe('resolveMemberWebUrl', () => {
  it('prefers VITE_MEMBER_WEB_URL', () => {
    expect(resolveMemberWebUrl('https://mate.example/', { protocol: 'https:', hostname: 'localhost' })).toBe(
      'https://mate.example',
    );
  });

  it('uses port 4200 on localhost and the app. sibling host elsewhere', () => {
    expect(resolveMemberWebUrl(undefined, { protocol: 'http:', hostname: 'localhost' })).toBe('http://localhost:4200');
    expect(resolveMemberWebUrl(undefined, { protocol: 'https:', hostname: 'admin.mate.example' })).toBe(
      'https://app.mate.example',
    );
  });

  it('agrees with the shared port table', () => {
    expect(LOCAL_GATEWAY_PORT).toBe(DEFAULT_PORTS.gateway);
    expect(LOCAL_MEMBER_WEB_PORT).toBe(DEFAULT_PORTS.web);
  });
});
