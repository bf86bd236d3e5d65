/** The one error body every service and the gateway answer with (spec 000 §8 reads `error`). */
export interface ApiErrorBody {
  error: string;
  code?: string;
  requestId?: string;
  /** Field-level messages from validation, when there are several. */
  details?: string[];
}

/** Stable machine-readable codes; the text in `error` is for people. */
export enum ErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  MalformedJson = 'MALFORMED_JSON',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  RateLimited = 'RATE_LIMITED',
  EmailTaken = 'EMAIL_TAKEN',
  InvalidCredentials = 'INVALID_CREDENTIALS',
  AccountSuspended = 'ACCOUNT_SUSPENDED',
  InvalidToken = 'INVALID_TOKEN',
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
