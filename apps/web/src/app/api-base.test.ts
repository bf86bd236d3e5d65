import { describe, expect, it } from 'vitest';
import { resolveApiBase } from './api-base';

describe('resolveApiBase', () => {
  it('prefers VITE_API_URL, without a trailing slash or /api', () => {
    expect(resolveApiBase('https://api.mate.example/', { protocol: 'https:', hostname: 'localhost' })).toBe(
      'https://api.mate.example',
    );
    expect(resolveApiBase('http://gw:3000/api', { protocol: 'http:', hostname: 'x' })).toBe('http://gw:3000');
  });

  it('uses port 3000 on localhost and 127.0.0.1', () => {
    expect(resolveApiBase(undefined, { protocol: 'http:', hostname: 'localhost' })).toBe('http://localhost:3000');
    expect(resolveApiBase('', { protocol: 'http:', hostname: '127.0.0.1' })).toBe('http://127.0.0.1:3000');
  });

  it('uses the same origin elsewhere', () => {
    expect(resolveApiBase(undefined, { protocol: 'https:', hostname: 'mate.example' })).toBe('');
  });
});
