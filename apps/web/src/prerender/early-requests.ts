// A visit with a stored session asks for its session check from index.html itself (issue 26): an
// inline script in the page's head starts the two calls while the app's code is still on its way,
// and the app's API client takes their answers instead of asking again. Before, the calls left only
// once the code had arrived and run: on a phone that is a whole round trip (and the server's time)
// added to every signed-in screen's first paint. ADR 0027, decision 6.
import { LOCAL_GATEWAY_PORT } from '../app/api-base';

/** Where the inline script leaves what it asked for, for the API client to take. */
export const EARLY_REQUESTS_GLOBAL = '__mateEarlyRequests';
/** The session check every visit with a stored token makes first (AuthContext's sessionCheck). */
export const SESSION_CHECK_PATHS = ['/api/auth/me', '/api/profile/me'] as const;
/**
 * What each screen's first paint waits for, by route (`:userId` a member's id, a UUID): asked for
 * from index.html as well, beside the session check. The addresses are the API client's own, query
 * included (early-requests.test.ts checks each against the client's call). Only GETs a screen makes
 * at once on opening; nothing that writes.
 */
export const SCREEN_REQUESTS: ReadonlyArray<{ route: string; paths: readonly string[] }> = [
  {
    route: '/dashboard',
    paths: [
      '/api/matches/stats',
      '/api/matches/my-matches',
      '/api/matches/likes-received?limit=12&offset=0',
      '/api/chat/conversations',
      '/api/profile/me/completion',
    ],
  },
  { route: '/discover', paths: ['/api/matches/suggestions?limit=20'] },
  { route: '/matches', paths: ['/api/chat/conversations'] },
  { route: '/chat/:userId', paths: ['/api/profile/:userId', '/api/chat/conversation/:userId?limit=50'] },
];

/** A route of SCREEN_REQUESTS as a pattern over `location.pathname` (one group: the member's id). */
export function routePattern(route: string): string {
  return `^${route.replace(':userId', '([0-9a-fA-F-]{36})')}/?$`;
}

/** An early answer not taken within this time is left: a later call asks the server afresh. */
export const EARLY_ANSWER_TTL_MS = 15_000;

/** One call the page started: its address, the token it carried, when, and its answer. */
export interface EarlyRequest {
  url: string;
  token: string;
  at: number;
  response: Promise<Response>;
}

export interface EarlyRequestsOptions {
  /** The stored token's keys, in the order the app reads them (@mate/ui's readStoredToken). */
  storageKeys: readonly string[];
  /** The build's VITE_API_URL, for a page the server gave no `mate:api-origin`. */
  apiUrl?: string;
}

/**
 * The inline script (plain ES5, no imports). It finds the gateway as `resolveApiBase` does (the
 * page's `mate:api-origin` first, then the build's value, then port 3000 on a local host, else the
 * page's own origin) and, with a stored token, starts the session check's GETs and those of the
 * screen the page opens on, with the headers the client sends. Without a token it does nothing: a
 * visitor without a session fetches nothing.
 */
export function earlyRequestsScript({ storageKeys, apiUrl = '' }: EarlyRequestsOptions): string {
  return (
    `(function(){try{var k=${JSON.stringify(storageKeys)},t=null;` +
    `for(var i=0;i<k.length&&!t;i++)t=localStorage.getItem(k[i]);if(!t)return;` +
    `var m=document.querySelector('meta[name="mate:api-origin"]'),b=((m&&m.content.trim())||${JSON.stringify(apiUrl.trim())});` +
    `if(b)b=b.replace(/\\/+$/,'').replace(/\\/api$/,'');` +
    `else if(location.hostname==='localhost'||location.hostname==='127.0.0.1')b=location.protocol+'//'+location.hostname+':${LOCAL_GATEWAY_PORT}';` +
    `var p=${JSON.stringify(SESSION_CHECK_PATHS)},s=${JSON.stringify(SCREEN_REQUESTS.map(({ route, paths }) => [routePattern(route), paths]))},r=[];` +
    `for(var n=0;n<s.length;n++){var g=new RegExp(s[n][0]).exec(location.pathname);if(g){for(var q=0;q<s[n][1].length;q++)p.push(s[n][1][q].replace(':userId',g[1]||''));break}}` +
    `for(var j=0;j<p.length;j++){` +
    `var f=fetch(b+p[j],{headers:{Accept:'application/json',Authorization:'Bearer '+t},cache:'no-store'});` +
    `f['catch'](function(){});r.push({url:b+p[j],token:t,at:Date.now(),response:f})}` +
    `window.${EARLY_REQUESTS_GLOBAL}=r}catch(e){}})()`
  );
}

/** `url` as an absolute address without the client's cache-busting `t` (getMyProfile adds one). */
function comparable(url: string, base: string): string {
  const parsed = new URL(url, base);
  parsed.searchParams.delete('t');
  return parsed.href;
}

function authorizationOf(headers: HeadersInit | undefined): string | null {
  return headers ? new Headers(headers).get('Authorization') : null;
}

/**
 * The fetch the API client uses: a GET for an address the page already asked for, with the same
 * token, within EARLY_ANSWER_TTL_MS, gets that answer, once; every other call goes to `realFetch`.
 * A signed-out visit, a token changed since, or a second call for the same address asks the server.
 */
export function withEarlyAnswers(
  win: Window & { [EARLY_REQUESTS_GLOBAL]?: unknown },
  realFetch: typeof fetch = win.fetch.bind(win),
  now: () => number = Date.now,
): typeof fetch {
  const started = win[EARLY_REQUESTS_GLOBAL];
  delete win[EARLY_REQUESTS_GLOBAL];
  const base = win.location.href;
  const waiting = (Array.isArray(started) ? (started as EarlyRequest[]) : []).map((request) => ({
    ...request,
    url: comparable(request.url, base),
  }));
  return (input, init) => {
    // Answers past their time are dropped (a screen left before it asked, a redirect): once none
    // wait, every call goes straight to the network, with no address to compare.
    for (let i = waiting.length - 1; i >= 0; i--)
      if (now() - (waiting[i]?.at ?? 0) >= EARLY_ANSWER_TTL_MS) waiting.splice(i, 1);
    if (waiting.length > 0 && (init?.method ?? 'GET').toUpperCase() === 'GET' && typeof input === 'string') {
      const url = comparable(input, base);
      const authorization = authorizationOf(init?.headers);
      const index = waiting.findIndex(
        (request) => request.url === url && authorization === `Bearer ${request.token}`,
      );
      const [early] = index >= 0 ? waiting.splice(index, 1) : [];
      if (early) return early.response;
    }
    return realFetch(input, init);
  };
}
