import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { throwError } from 'rxjs';
import { ApiErrorBody, type ApiErrorCode, EdgeMessages, ErrorCode, REQUEST_ID_HEADER } from '@mate/contracts';
import { currentRequestId } from '../logging/logger';
import { AppException } from './app.exception';

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: ErrorCode.ValidationFailed,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  408: ErrorCode.RequestTimeout,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  429: ErrorCode.RateLimited,
  503: ErrorCode.ServiceUnavailable,
};

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** The body parsers' refusals (the depth limit's own text is JsonBodyMessages.tooDeep, with its limit). */
export const BodyErrorMessages = {
  malformed: 'Malformed JSON in request body',
  /** The gateway's words for the same 413. */
  tooLarge: EdgeMessages.tooLarge,
  charset: 'Unsupported character set: send UTF-8 JSON',
  encoding: 'Unsupported content encoding: send the body uncompressed (no Content-Encoding)',
  unreadable: 'The request could not be read',
} as const;

/**
 * A refusal of the request itself by Express or a body parser (not by our code): body-parser and
 * raw-body errors carry a `type`, http-errors marks client errors `expose`, and the router gives
 * an undecodable path parameter (`%E0%A4%A`) status 400. Errors of outgoing calls, which may
 * carry another server's 4xx status, have none of these and stay 500s.
 */
function clientStatusOf(error: BodyParserError | undefined): number | undefined {
  if (!error || typeof error !== 'object' || error instanceof HttpException) return undefined;
  const status = typeof error.status === 'number' ? error.status : error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const fromParser = typeof error.type === 'string' || error.expose === true || error instanceof URIError;
  return fromParser ? status : undefined;
}

/**
 * Turns every failure into `{ error, code, requestId }`. Known HTTP errors keep their status and
 * message; body-parser failures become 400/413/415 with a clear message, and any other refusal of
 * the request by the parsers is a 4xx too; anything else is a 500 whose body says only that
 * something failed, with the request id that finds the stack in the logs.
 */
export function toErrorBody(exception: unknown, requestId: string | undefined): { status: number; body: ApiErrorBody } {
  const parserError = exception as BodyParserError | undefined;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return { status: 400, body: { error: BodyErrorMessages.malformed, code: ErrorCode.MalformedJson, requestId } };
    case 'entity.too.large':
      return { status: 413, body: { error: BodyErrorMessages.tooLarge, code: ErrorCode.PayloadTooLarge, requestId } };
    case 'entity.too.deep':
      // Only the JSON body parser's own refusal carries this type, with JsonBodyMessages.tooDeep.
      return { status: 400, body: { error: parserError.message, code: ErrorCode.ValidationFailed, requestId } };
    case 'charset.unsupported':
      return { status: 415, body: { error: BodyErrorMessages.charset, code: ErrorCode.ValidationFailed, requestId } };
    case 'encoding.unsupported':
      return { status: 415, body: { error: BodyErrorMessages.encoding, code: ErrorCode.ValidationFailed, requestId } };
  }
  // Any other refusal by the parsers (aborted, bad length, a corrupt compressed body, ...) is the client's: say so.
  const clientStatus = clientStatusOf(parserError);
  if (clientStatus !== undefined) {
    return { status: clientStatus, body: { error: BodyErrorMessages.unreadable, code: STATUS_CODES[clientStatus] ?? ErrorCode.ValidationFailed, requestId } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    let message = exception.message;
    let code: ApiErrorCode = STATUS_CODES[status] ?? ErrorCode.Internal;
    let details: string[] | undefined;
    if (typeof response === 'string') message = response;
    else if (response && typeof response === 'object') {
      const r = response as { error?: unknown; message?: unknown; code?: unknown; details?: unknown };
      if (typeof r.error === 'string' && r.code) message = r.error;
      else if (Array.isArray(r.message)) {
        details = r.message.map(String);
        message = details[0] ?? message;
      } else if (typeof r.message === 'string') message = r.message;
      // A module's code (an AppException's) passes through as it is.
      if (typeof r.code === 'string') code = r.code as ApiErrorCode;
      if (Array.isArray(r.details)) details = r.details.map(String);
    }
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(message)) message = 'Not found';
    const body: ApiErrorBody = { error: message, code, requestId };
    if (details && details.length > 1) body.details = details;
    return { status, body };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { error: 'Something went wrong on our side. Please try again.', code: ErrorCode.Internal, requestId },
  };
}

interface SocketLike {
  emit?: (event: string, body: unknown) => unknown;
}

/**
 * One filter for the three kinds of handler. HTTP answers with the status and body; a socket.io
 * handler ('ws') gets the body as Nest's `exception` event; a service call ('rpc') fails with the
 * body, which the caller reads as `{ error, code }`. 500s are logged with their stack in every case.
 */
@Catch()
export class GlobalErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const type = host.getType();
    if (type === 'http') return this.answerHttp(exception, host);
    const requestId = currentRequestId();
    const { status, body } = toErrorBody(exception, requestId);
    if (status >= 500) this.logServerError(exception, { requestId, context: type });
    if (type === 'ws') {
      host.switchToWs().getClient<SocketLike>()?.emit?.('exception', body);
      return body;
    }
    return throwError(() => body);
  }

  /**
   * A 5xx a service chose (an AppException such as "busy, retry later") is expected: one warning
   * with its code. Anything else is a failure nobody planned for: an error with its stack.
   */
  private logServerError(exception: unknown, where: Record<string, unknown>) {
    if (exception instanceof AppException) {
      const cause = (exception as Error & { cause?: unknown }).cause;
      const because = cause instanceof Error ? { cause: { name: cause.name, message: cause.message } } : {};
      this.logger.warn({ ...where, code: exception.code, status: exception.getStatus(), ...because }, 'refused by the service');
    } else {
      this.logger.error({ ...where, err: exception }, 'unhandled error');
    }
  }

  private answerHttp(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const requestId = req?.headers?.[REQUEST_ID_HEADER] as string | undefined;
    const { status, body } = toErrorBody(exception, requestId);
    if (status >= 500) this.logServerError(exception, { requestId, path: req?.path });
    const retry = (exception as { retryAfterSeconds?: number })?.retryAfterSeconds;
    if (retry && !res.headersSent) res.setHeader('Retry-After', String(retry));
    if (!res.headersSent) res.status(status).json(body);
  }
}
