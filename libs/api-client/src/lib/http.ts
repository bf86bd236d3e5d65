import { FALLBACK_ERROR_MESSAGE } from '@mate/contracts';
import { ApiError, errorMessageFor, serverErrorOf } from './errors';

export type QueryValue = string | number | boolean | undefined | null;

export interface ApiClientConfig {
  /** Origin of the gateway (`http://localhost:3000`), or '' for the page's own origin. Paths carry `/api`. */
  baseUrl?: string;
  /** Bearer token for calls that carry one; read on every call so a new login is picked up. */
  getToken?: () => string | null | undefined;
  /** Defaults to the global fetch (browsers, Node 18+). */
  fetch?: typeof fetch;
  /**
   * Called when a call that carried a token comes back 401: the session is gone on the server.
   * `token` is the one that was refused, so a late answer cannot end a newer session.
   */
  onUnauthorized?: (error: ApiError, token: string) => void;
}

export interface RequestOptions {
  /** Sent as JSON, except a `FormData`, which goes as multipart (uploads). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Spec 000 §8 per-call message, used only when the server gives no `error` field. */
  fallbackMessage?: string;
  /**
   * `true` (default): send the bearer token from `getToken` when there is one.
   * `false`: send none. `{ token }`: send this token instead (email change reads a second storage key).
   */
  auth?: boolean | { token: string };
  cache?: RequestCache;
  signal?: AbortSignal;
}

export class HttpClient {
  private readonly baseUrl: string;

  constructor(private readonly config: ApiClientConfig = {}) {
    this.baseUrl = (config.baseUrl ?? '').replace(/\/+$/, '');
  }

  /** The base every path is appended to ('' for the page's own origin). */
  get base(): string {
    return this.baseUrl;
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, options);
  }

  put<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('PUT', path, options);
  }

  patch<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, options);
  }

  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  /** A GET whose answer's headers matter too (a list's total in `X-Total-Count`). */
  getWithHeaders<T>(path: string, options?: RequestOptions): Promise<{ body: T; headers: Headers }> {
    return this.send<T>('GET', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.send<T>(method, path, options)).body;
  }

  private async send<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ body: T; headers: Headers }> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = this.tokenFor(options.auth ?? true);
    if (token) headers['Authorization'] = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (isFormData(options.body)) {
      // Multipart: fetch writes the Content-Type with its boundary itself.
      body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    const doFetch = this.config.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(this.url(path, options.query), {
        method,
        headers,
        body,
        cache: options.cache,
        signal: options.signal,
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError(options.fallbackMessage ?? FALLBACK_ERROR_MESSAGE, 0);
    }

    const parsed = await readBody(response);
    if (!response.ok) {
      const { serverMessage, code } = serverErrorOf(parsed);
      const error = new ApiError(
        errorMessageFor(parsed, response.statusText, options.fallbackMessage),
        response.status,
        serverMessage,
        code,
        parsed,
      );
      if (response.status === 401 && token) this.config.onUnauthorized?.(error, token);
      throw error;
    }
    return { body: parsed as T, headers: response.headers };
  }

  private tokenFor(auth: RequestOptions['auth']): string | undefined {
    if (auth === false) return undefined;
    if (typeof auth === 'object') return auth.token;
    return this.config.getToken?.() ?? undefined;
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}
