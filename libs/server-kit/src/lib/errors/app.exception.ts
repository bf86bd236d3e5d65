import { HttpException, HttpStatus } from '@nestjs/common';
import { type ApiErrorCode, EdgeMessages, ErrorCode } from '@mate/contracts';

/**
 * The one exception type a service throws for a rule it enforces. Modules call the helpers with
 * their own code (`badRequest(MatchingMessages.likeSelf, MatchingErrorCode.LikeSelf)`), so each
 * failure carries a status, a code that names its cause and a message for people. The defaults
 * (`ErrorCode`) are for the kit's own refusals and for malformed input.
 */
export class AppException extends HttpException {
  constructor(
    message: string,
    readonly code: ApiErrorCode,
    status: HttpStatus,
    readonly details?: string[],
  ) {
    super({ error: message, code, details }, status);
  }
}

export const badRequest = (message: string, code: ApiErrorCode = ErrorCode.ValidationFailed, details?: string[]) =>
  new AppException(message, code, HttpStatus.BAD_REQUEST, details);
export const unauthorized = (message: string, code: ApiErrorCode = ErrorCode.Unauthorized) =>
  new AppException(message, code, HttpStatus.UNAUTHORIZED);
export const forbidden = (message: string, code: ApiErrorCode = ErrorCode.Forbidden) =>
  new AppException(message, code, HttpStatus.FORBIDDEN);
export const notFound = (message: string, code: ApiErrorCode = ErrorCode.NotFound) =>
  new AppException(message, code, HttpStatus.NOT_FOUND);
export const conflict = (message: string, code: ApiErrorCode = ErrorCode.Conflict) =>
  new AppException(message, code, HttpStatus.CONFLICT);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) => {
  const e = new AppException(message, ErrorCode.RateLimited, HttpStatus.TOO_MANY_REQUESTS);
  (e as AppException & { retryAfterSeconds?: number }).retryAfterSeconds = retryAfterSeconds;
  return e;
};
/**
 * 503: a part the service needs (Redis, the database) did not answer; the caller may retry. The
 * failure is kept as `cause` for the log line, never shown to the caller.
 */
export const serviceUnavailable = (cause?: unknown, message: string = EdgeMessages.unavailable) => {
  const e = new AppException(message, ErrorCode.ServiceUnavailable, HttpStatus.SERVICE_UNAVAILABLE);
  if (cause !== undefined) (e as Error & { cause?: unknown }).cause = cause;
  return e;
};
