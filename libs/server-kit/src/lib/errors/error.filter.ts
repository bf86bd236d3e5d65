import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { throwError } from 'rxjs';
import { ApiErrorBody, ErrorCode, REQUEST_ID_HEADER } from '@mate/contracts';
import { currentRequestId } from '../logging/logger';

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: ErrorCode.ValidationFailed,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  429: ErrorCode.RateLimited,
  503: ErrorCode.ServiceUnavailable,
};

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/**
 * Turns every failure into `{ error, code, requestId }`. Known HTTP errors keep their status and
 * message; body-parser failures become 400/413 with a clear message; anything else is a 500 whose
 * body says only that something failed, with the request id that finds the stack in the logs.
 */
export function toErrorBody(exception: unknown, requestId: string | undefined): { status: number; body: ApiErrorBody } {
  const parserError = exception as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    return { status: 400, body: { error: 'Malformed JSON in request body', code: ErrorCode.MalformedJson, requestId } };
  }
  if (parserError?.type === 'entity.too.large') {
    return { status: 413, body: { error: 'Request body is too large', code: ErrorCode.PayloadTooLarge, requestId } };
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    const what = parserError.type === 'charset.unsupported' ? 'character set' : 'content encoding';
    return { status: 415, body: { error: `Unsupported ${what}: send UTF-8 JSON`, code: ErrorCode.ValidationFailed, requestId } };
  }
  // Any other refusal of the body parser (aborted, bad length, ...) is the client's: say so.
  if (typeof parserError?.type === 'string' && typeof parserError.status === 'number' && parserError.status < 500) {
    return { status: parserError.status, body: { error: 'The request body could not be read', code: ErrorCode.ValidationFailed, requestId } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    let message = exception.message;
    let code = STATUS_CODES[status] ?? ErrorCode.Internal;
    let details: string[] | undefined;
    if (typeof response === 'string') message = response;
    else if (response && typeof response === 'object') {
      const r = response as { error?: unknown; message?: unknown; code?: unknown; details?: unknown };
      if (typeof r.error === 'string' && r.code) message = r.error;
      else if (Array.isArray(r.message)) {
        details = r.message.map(String);
        message = details[0] ?? message;
      } else if (typeof r.message === 'string') message = r.message;
      if (typeof r.code === 'string') code = r.code as ErrorCode;
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
    if (status >= 500) this.logger.error({ requestId, err: exception, context: type }, 'unhandled error');
    if (type === 'ws') {
      host.switchToWs().getClient<SocketLike>()?.emit?.('exception', body);
      return body;
    }
    return throwError(() => body);
  }

  private answerHttp(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const requestId = req?.headers?.[REQUEST_ID_HEADER] as string | undefined;
    const { status, body } = toErrorBody(exception, requestId);
    if (status >= 500) {
      this.logger.error({ requestId, err: exception, path: req?.path }, 'unhandled error');
    }
    const retry = (exception as { retryAfterSeconds?: number })?.retryAfterSeconds;
    if (retry && !res.headersSent) res.setHeader('Retry-After', String(retry));
    if (!res.headersSent) res.status(status).json(body);
  }
}
