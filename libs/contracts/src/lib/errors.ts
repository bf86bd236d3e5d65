/** The one error body every service and the gateway answer with (spec 000 §8 reads `error`). */
export interface ApiErrorBody {
  error: string;
  code?: string;
  requestId?: string;
  /** Field-level messages from validation, when there are several. */
  details?: string[];
}

/**
 * Stable machine-readable codes of the refusals every service shares, made by the kit (input
 * validation, the body parsers, the auth guard, rate limits, 503, 500) or by the gateway's edge;
 * the text in `error` is for people. A refusal for a module's own rule carries that module's code
 * instead (`MatchingErrorCode`, `ChatErrorCode`, ...: `ApiErrorCode` is all of them).
 */
export enum ErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  MalformedJson = 'MALFORMED_JSON',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  RateLimited = 'RATE_LIMITED',
  SessionExpired = 'SESSION_EXPIRED',
  /** A member feature called by an account whose email is not verified yet (403). */
  EmailNotVerified = 'EMAIL_NOT_VERIFIED',
  /** The request body did not arrive within the deadline (408). */
  RequestTimeout = 'REQUEST_TIMEOUT',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  Internal = 'INTERNAL',
}

/** The generic fallback texts of spec 000 §8 and 001 §8. */
export const FALLBACK_ERROR_MESSAGE = 'An error occurred';
export const REQUEST_FAILED_MESSAGE = 'Request failed';

/**
 * The texts the gateway's edge (and server-kit, for the same refusals a service makes itself)
 * answers with, in one place so a client or a test names them instead of copying them.
 */
export const EdgeMessages = {
  /** 408: a request body, or an upload, that did not arrive by its deadline. */
  requestTimeout: 'Request body was not received in time',
  /** 413: a body over the limit of its route. */
  tooLarge: 'Request body is too large',
  /** 503: a service down, slow, out of connections, or the edge out of buffer memory. */
  unavailable: 'Service temporarily unavailable',
  /** 429: over the per-address cap on requests in flight (the per-minute rate says 'Too many attempts'). */
  tooManyInFlight: 'Too many requests in progress',
  /** 404: an API path no service owns. */
  notFound: 'Not found',
} as const;
