import { createApiClient } from '@mate/api-client';
import { AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY, SUGGESTIONS_PAGE_SIZE } from '@mate/contracts';
import { describe, expect, it, vi } from 'vitest';
import { resolveApiBase } from '../app/api-base';
import { HOME_LIKERS_PAGE } from '../screens/dashboard/useHome';
import { aProfile, aUser } from '../testing/fake-api';
import {
  EARLY_ANSWER_TTL_MS,
  EARLY_REQUESTS_GLOBAL,
  SCREEN_REQUESTS,
  SESSION_CHECK_PATHS,
  earlyRequestsScript,
  withEarlyAnswers,
  type EarlyRequest,
} from './early-requests';

const KEYS = [AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY];

interface PageOptions {
  href?: string;
  stored?: Record<string, string>;
  apiOrigin?: string;
  apiUrl?: string;
}

/**
 * Runs the inline script as index.html would, in a page of its own: its address, its storage, its
 * `mate:api-origin` meta, and a fetch that records what was asked.
 */
function runScript({ href = 'https://mate.example/dashboard', stored = {}, apiOrigin, apiUrl }: PageOptions) {
  const doc = document.implementation.createHTMLDocument('page');
  if (apiOrigin !== undefined) {
    const meta = doc.createElement('meta');
    meta.name = 'mate:api-origin';
    meta.content = apiOrigin;
    doc.head.append(meta);
  }
  const storage = { getItem: (key: string) => stored[key] ?? null };
  const fetch = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response('{}')));
  const win: Record<string, unknown> = {};
  const script = earlyRequestsScript({ storageKeys: KEYS, apiUrl });
  new Function('window', 'document', 'location', 'localStorage', 'fetch', script)(win, doc, new URL(href), storage, fetch);
  return { fetch, started: win[EARLY_REQUESTS_GLOBAL] as EarlyRequest[] | undefined };
}

describe('the early session check (index.html, before the code arrives)', () => {
  it('asks for the member and their profile with the stored token, as the client would', () => {
    const { fetch, started } = runScript({ href: 'https://mate.example/profile', stored: { [AUTH_TOKEN_KEY]: 'tok-1' } });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/auth/me', '/api/profile/me']);
    for (const [, init] of fetch.mock.calls) {
      expect(init).toEqual({ headers: { Accept: 'application/json', Authorization: 'Bearer tok-1' }, cache: 'no-store' });
    }
    expect(started?.map((request) => [request.url, request.token])).toEqual([
      ['/api/auth/me', 'tok-1'],
      ['/api/profile/me', 'tok-1'],
    ]);
  });

  it('reads the token as the app does: auth_token first, then the second key', () => {
    expect(runScript({ stored: { [LEGACY_TOKEN_KEY]: 'legacy' } }).started?.[0]?.token).toBe('legacy');
    expect(runScript({ stored: { [AUTH_TOKEN_KEY]: 'main', [LEGACY_TOKEN_KEY]: 'legacy' } }).started?.[0]?.token).toBe('main');
  });

  const MEMBER = '7f8a9b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c';

  it("asks for the opened screen's data beside the session check: the home, the matches, a chat", () => {
    const asked = (path: string) => runScript({ href: `https://mate.example${path}`, stored: { [AUTH_TOKEN_KEY]: 't' } }).fetch.mock.calls.map(([url]) => url);
    expect(asked('/dashboard')).toEqual([...SESSION_CHECK_PATHS, ...(SCREEN_REQUESTS[0]?.paths ?? [])]);
    expect(asked('/matches')).toEqual([...SESSION_CHECK_PATHS, '/api/chat/conversations']);
    expect(asked('/discover')).toEqual([...SESSION_CHECK_PATHS, '/api/matches/suggestions?limit=20']);
    expect(asked(`/chat/${MEMBER}`)).toEqual([...SESSION_CHECK_PATHS, `/api/profile/${MEMBER}`, `/api/chat/conversation/${MEMBER}?limit=50`]);
    // Anything else, or a chat address that names no member, only the session check.
    expect(asked('/profile')).toEqual([...SESSION_CHECK_PATHS]);
    expect(asked('/chat/..%2Fadmin')).toEqual([...SESSION_CHECK_PATHS]);
    expect(asked(`/chat/${MEMBER}/extra`)).toEqual([...SESSION_CHECK_PATHS]);
  });

  it("names each screen's calls exactly as the API client makes them (or their answers would never be taken)", async () => {
    const made: string[] = [];
    const api = createApiClient({
      baseUrl: '',
      getToken: () => 't',
      fetch: (input) => {
        made.push(String(input));
        return Promise.resolve(new Response('{}'));
      },
    });
    const calls = async (...requests: Array<() => Promise<unknown>>) => {
      made.length = 0;
      await Promise.all(requests.map((request) => request().catch(() => undefined)));
      return [...made].sort();
    };
    const paths = (route: string) => [...(SCREEN_REQUESTS.find((s) => s.route === route)?.paths ?? [])].sort();
    expect(
      await calls(
        () => api.matching.getMatchStats(),
        () => api.matching.getMyMatches(),
        () => api.matching.likesReceived({ limit: HOME_LIKERS_PAGE, offset: 0 }),
        () => api.chat.getConversations(),
        () => api.profile.getCompletion(),
      ),
    ).toEqual(paths('/dashboard'));
    // Discover's queue (useDiscoverQueue: a page of SUGGESTIONS_PAGE_SIZE).
    expect(await calls(() => api.matching.getSuggestions(SUGGESTIONS_PAGE_SIZE))).toEqual(paths('/discover'));
    expect(await calls(() => api.chat.getConversations())).toEqual(paths('/matches'));
    // The chat's partner (useChatPartner) and its first page (ChatSync: getConversation with no cursor).
    expect(await calls(() => api.profile.getUserProfile(MEMBER), () => api.chat.getConversation(MEMBER))).toEqual(
      paths('/chat/:userId').map((path) => path.replace(':userId', MEMBER)).sort(),
    );
    // And the session check's two (AuthContext's sessionCheck), the profile's cache-busting `t` aside.
    expect((await calls(() => api.auth.me(), () => api.profile.getMyProfile())).map((url) => url.replace(/\?t=\d+$/, ''))).toEqual(
      [...SESSION_CHECK_PATHS].sort(),
    );
  });

  it('asks for nothing without a stored session', () => {
    const { fetch, started } = runScript({});
    expect(fetch).not.toHaveBeenCalled();
    expect(started).toBeUndefined();
  });

  it.each([
    { what: "the server's mate:api-origin first", href: 'https://mate.example/dashboard', apiOrigin: 'https://api.example/', apiUrl: 'https://built.example' },
    { what: "the build's VITE_API_URL, with /api dropped", href: 'http://localhost:4250/matches', apiUrl: 'http://127.0.0.1:3950/api' },
    { what: "port 3000 on a local host", href: 'http://localhost:4200/chat/x', apiUrl: '' },
    { what: "127.0.0.1 as well", href: 'http://127.0.0.1:4200/', apiUrl: '' },
    { what: "the page's own origin elsewhere", href: 'https://mate.example/profile', apiUrl: '' },
  ])('finds the gateway where the app does: $what', ({ href, apiOrigin, apiUrl }) => {
    const { fetch } = runScript({ href, apiOrigin, apiUrl, stored: { [AUTH_TOKEN_KEY]: 't' } });
    const base = resolveApiBase(apiOrigin ?? apiUrl, new URL(href));
    expect(fetch.mock.calls[0]?.[0]).toBe(`${base}/api/auth/me`);
  });
});

describe('the API client takes the early answers', () => {
  const page = (started: EarlyRequest[] | undefined) =>
    ({ location: { href: 'https://mate.example/dashboard' }, [EARLY_REQUESTS_GLOBAL]: started }) as unknown as Window;
  const early = (url: string, token = 'tok', at = 1_000): EarlyRequest => ({
    url,
    token,
    at,
    response: Promise.resolve(new Response(JSON.stringify({ early: url }))),
  });
  const get = (token: string) => ({ method: 'GET', headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });

  it('once each, for the same address and token, whatever cache-busting `t` the client adds', async () => {
    const me = early('/api/auth/me');
    const profile = early('/api/profile/me');
    const real = vi.fn(() => Promise.resolve(new Response('{"real":true}')));
    const fetch = withEarlyAnswers(page([me, profile]), real, () => 2_000);
    expect(fetch('https://mate.example/api/profile/me?t=123', get('tok'))).toBe(profile.response);
    expect(fetch('/api/auth/me', get('tok'))).toBe(me.response);
    expect(real).not.toHaveBeenCalled();
    // Taken: the next call asks the server.
    await fetch('/api/auth/me', get('tok'));
    expect(real).toHaveBeenCalledTimes(1);
  });

  it('never for another token, another method, another address, or after its time', async () => {
    const real = vi.fn(() => Promise.resolve(new Response('{}')));
    const fetch = withEarlyAnswers(page([early('/api/auth/me')]), real, () => 1_000 + EARLY_ANSWER_TTL_MS);
    await fetch('/api/auth/me', get('tok'));
    const fresh = withEarlyAnswers(page([early('/api/auth/me')]), real, () => 1_500);
    await fresh('/api/auth/me', get('someone-else'));
    await fresh('/api/auth/me', { ...get('tok'), method: 'POST' });
    await fresh('/api/matches/stats', get('tok'));
    expect(real).toHaveBeenCalledTimes(4);
  });

  it('leaves nothing behind on the page, and asks the server when the page started nothing', async () => {
    const win = page(undefined);
    const real = vi.fn(() => Promise.resolve(new Response('{}')));
    await withEarlyAnswers(win, real)('/api/auth/me', get('tok'));
    expect(real).toHaveBeenCalledTimes(1);
    const withRequests = page([early('/api/auth/me')]);
    withEarlyAnswers(withRequests, real);
    expect(EARLY_REQUESTS_GLOBAL in withRequests).toBe(false);
  });

  it("gives the client's session check the early answers (the member and their profile)", async () => {
    const user = aUser();
    const profile = aProfile();
    const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    const started: EarlyRequest[] = [
      { url: '/api/auth/me', token: 'tok', at: 1_000, response: answer({ user }) },
      { url: '/api/profile/me', token: 'tok', at: 1_000, response: answer(profile) },
    ];
    const real = vi.fn(() => Promise.reject(new Error('the server was asked again')));
    const api = createApiClient({ baseUrl: '', getToken: () => 'tok', fetch: withEarlyAnswers(page(started), real, () => 1_200) });
    expect(await api.auth.me()).toEqual(user);
    expect((await api.profile.getMyProfile()).userId).toBe(profile.userId);
    expect(real).not.toHaveBeenCalled();
  });
});
