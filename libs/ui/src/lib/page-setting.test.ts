import { afterEach, describe, expect, it } from 'vitest';
import { pageSetting } from './page-setting';

describe('pageSetting', () => {
  afterEach(() => {
    document.head.querySelectorAll('meta[name^="mate:"]').forEach((meta) => meta.remove());
  });

  const put = (name: string, content: string) => {
    const meta = document.createElement('meta');
    meta.name = name;
    meta.content = content;
    document.head.append(meta);
  };

  it('reads what the web server put into the page', () => {
    put('mate:api-origin', 'http://127.0.0.1:3950');
    put('mate:admin-web-url', ' https://admin.mate.example ');
    expect(pageSetting('api-origin')).toBe('http://127.0.0.1:3950');
    expect(pageSetting('admin-web-url')).toBe('https://admin.mate.example');
  });

  it('is undefined for a setting the server was not given, or gave empty', () => {
    put('mate:member-web-url', '   ');
    put('api-origin', 'http://not-ours.example');
    expect(pageSetting('member-web-url')).toBeUndefined();
    expect(pageSetting('api-origin')).toBeUndefined();
    expect(pageSetting('admin-web-url')).toBeUndefined();
  });
});
