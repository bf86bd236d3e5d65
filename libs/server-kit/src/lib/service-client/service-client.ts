import { Inject, Injectable } from '@nestjs/common';
import { IsOptional, IsUrl } from 'class-validator';
import {
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  serviceDefinition,
  serviceUrlVariable,
  type ServiceName,
} from '@mate/contracts';
import { SERVICE_ENV, type BaseServiceEnv } from '../config/config';
import { containsNul, findNul, NulTextMessages, PERCENT_NUL } from '../bootstrap/nul-text';
import { badRequest } from '../errors/app.exception';
import { currentRequestId } from '../logging/logger';

/** How long a call may take, body included, unless the caller says otherwise. */
export const SERVICE_CALL_DEFAULT_TIMEOUT_MS = 2_000;

/** Why a call to another service gave no usable answer. */
export type ServiceCallFailure =
  /** No answer within the timeout. */
  | 'timeout'
  /** The connection failed (refused, reset, DNS). */
  | 'unreachable'
  /** It answered with a status outside 2xx (`status`, and the `{ error }` text when it sent one). */
  | 'status'
  /** It answered 2xx with a body that is not JSON. */
  | 'invalid-body';

/**
 * A call to another service failed. Carries what a caller decides on (the kind, the status) and
 * what a log line may show: the service, the path without its query, and the other side's error
 * text (a short refusal), never a credential.
 */
export class ServiceCallError extends Error {
  override readonly name = 'ServiceCallError';

  constructor(
    readonly service: ServiceName,
    readonly path: string,
    readonly failure: ServiceCallFailure,
    message: string,
    readonly status?: number,
  ) {
    super(`${service} ${path}: ${message}`);
  }

  /** True when trying again later may succeed (the other side was away, slow or failing). */
  get retryable(): boolean {
    return this.failure !== 'status' || this.status === undefined || this.status >= 500 || this.status === 429;
  }
}

export type ServiceQuery = Record<string, string | number | boolean | Date | undefined | null>;

export interface ServiceCallOptions {
  /** Default SERVICE_CALL_DEFAULT_TIMEOUT_MS; covers connecting, the answer and its body. */
  timeoutMs?: number;
  /** Appended as a query string; undefined and null values are left out, dates as ISO 8601. */
  query?: ServiceQuery;
}

/**
 * Marks an env class's `<NAME>_SERVICE_URL` variable (optional; an http(s) URL). A service that
 * calls another declares the variable in its env class so it is validated at start-up and a test
 * can set it through `forRoot(env)`; without it ServiceClient uses the registry's local default.
 */
export function IsServiceUrl(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })(target, key);
  };
}

/**
 * Typed service-to-service HTTP calls (ARCHITECTURE §2, "queries between services ... through
 * typed clients with a timeout"; docs/adr/0014-safety.md). The base URL of a service is its
 * `<NAME>_SERVICE_URL` setting (`CHAT_SERVICE_URL`; declared in the caller's env class with
 * `@IsServiceUrl()`) or, on one machine, `http://127.0.0.1:<registry port>`. Every call carries the
 * deployment's INTERNAL_TOKEN (the only credential `/internal/**` routes accept) and the current
 * request id, so the callee logs its part under the same id. A timeout, a refused connection, a
 * non-2xx answer or an unreadable body is a ServiceCallError, which the caller handles: nothing is
 * retried here (whether a retry is safe is the caller's to say). A call that would carry a NUL
 * (U+0000) is not sent: a 400 AppException (ADR 0009).
 *
 * Add it to a module's providers; it needs only what CoreModule provides.
 */
@Injectable()
export class ServiceClient {
  private readonly urls = new Map<ServiceName, string>();

  constructor(@Inject(SERVICE_ENV) private readonly env: BaseServiceEnv) {}

  /** The base URL calls to `service` go to (no trailing slash). */
  baseUrl(service: ServiceName): string {
    let url = this.urls.get(service);
    if (!url) {
      const definition = serviceDefinition(service);
      if (!definition) throw new Error(`${service} is not a service of the registry`);
      const configured = (this.env as unknown as Record<string, unknown>)[serviceUrlVariable(service)];
      url = (typeof configured === 'string' && configured !== '' ? configured : `http://127.0.0.1:${definition.port}`).replace(/\/+$/, '');
      this.urls.set(service, url);
    }
    return url;
  }

  /** GET `path` of `service` and its JSON answer (typed by the caller's contract). */
  get<T>(service: ServiceName, path: string, options: ServiceCallOptions = {}): Promise<T> {
    return this.request<T>('GET', service, path, undefined, options);
  }

  /** POST a JSON body to `path` of `service` and its JSON answer. */
  post<T>(service: ServiceName, path: string, body: unknown, options: ServiceCallOptions = {}): Promise<T> {
    return this.request<T>('POST', service, path, body, options);
  }

  private async request<T>(
    method: string,
    service: ServiceName,
    path: string,
    body: unknown,
    { timeoutMs = SERVICE_CALL_DEFAULT_TIMEOUT_MS, query }: ServiceCallOptions,
  ): Promise<T> {
    const nul = nulProblem(path, query, body);
    if (nul) throw badRequest(nul);
    if (!path.startsWith('/')) throw new Error(`a service path starts with '/': ${path}`);
    if (UNSAFE_PATH.test(path)) throw new Error(`a service path has no dot segments, query, fragment, spaces or controls: ${JSON.stringify(path)}`);
    const url = `${this.baseUrl(service)}${path}${queryString(query)}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      [INTERNAL_TOKEN_HEADER]: this.env.INTERNAL_TOKEN,
    };
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const fail = (failure: ServiceCallFailure, message: string, status?: number) =>
      new ServiceCallError(service, path, failure, message, status);
    try {
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
          redirect: 'error',
        });
      } catch (e) {
        throw timedOut ? fail('timeout', `no answer within ${timeoutMs} ms`) : fail('unreachable', causeOf(e));
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw timedOut ? fail('timeout', `no answer within ${timeoutMs} ms`) : fail('unreachable', causeOf(e));
      }
      if (!res.ok) throw fail('status', `answered ${res.status}${errorTextOf(text)}`, res.status);
      try {
        return (text === '' ? undefined : JSON.parse(text)) as T;
      } catch {
        throw fail('invalid-body', `answered ${res.status} with a body that is not JSON`, res.status);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A path the URL parser would not keep as sent: a dot segment (`..` climbs out of the route the
 * caller built, also spelled `%2e`), a query or fragment inside it, a backslash, whitespace or a
 * control character. With a member's text in a segment, any of these could send the internal
 * credential to another route of the callee; callers put only checked ids in paths, this is the
 * backstop.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_PATH = /[?#\\\s\u0000-\u001f\u007f]|(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * A NUL (U+0000) in what a call would send: the path (raw or `%00`), a query parameter, or any
 * string or key of the body. Every service refuses one at its edge, so none should get here; if
 * a value from elsewhere (a job, an event) carries one, the call is refused before it is sent, as
 * a 400 of the request that led to it, and the callee never sees it (PostgreSQL would refuse it).
 */
function nulProblem(path: string, query: ServiceQuery | undefined, body: unknown): string | undefined {
  if (containsNul(path) || PERCENT_NUL.test(path)) return NulTextMessages.path;
  for (const [name, value] of Object.entries(query ?? {})) {
    if (containsNul(name)) return NulTextMessages.queryParameterName;
    if (typeof value === 'string' && containsNul(value)) return NulTextMessages.queryParameter(name);
  }
  const inBody = findNul(body);
  if (inBody) return inBody.inKey ? NulTextMessages.bodyFieldName : NulTextMessages.bodyField(inBody.path || '(the body)');
  return undefined;
}

function queryString(query: ServiceQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The other side's `{ error }` text, shortened (it names the refusal; it is logged). */
function errorTextOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === 'string') return `: ${body.error.slice(0, 200)}`;
  } catch {
    /* not the error body */
  }
  return '';
}

/** What a failed fetch says: undici hides the socket error in `cause`. */
function causeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return e instanceof Error ? e.message : String(e);
}
