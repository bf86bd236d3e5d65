import { gunzipSync } from 'node:zlib';
import { type ArgumentsHost, BadRequestException, HttpStatus, NotFoundException } from '@nestjs/common';
import type { Logger } from 'pino';
import { IsEmail } from 'class-validator';
import { AuthErrorCode, ErrorCode, MatchingErrorCode } from '@mate/contracts';
import { AppException, badRequest, conflict } from './app.exception';
import { BodyErrorMessages, GlobalErrorFilter, toErrorBody } from './error.filter';
import { createValidationPipe, UNREADABLE_INPUT_MESSAGE } from './validation';

describe('toErrorBody', () => {
  it('keeps a rule violation as status, code and message', () => {
    expect(toErrorBody(conflict('Taken', AuthErrorCode.EmailTaken), 'r1')).toEqual({
      status: 409,
      body: { error: 'Taken', code: AuthErrorCode.EmailTaken, requestId: 'r1' },
    });
  });

  it("passes a module's code through unchanged, whatever the status", () => {
    expect(toErrorBody(badRequest('No', MatchingErrorCode.LikeSelf), 'r2')).toEqual({
      status: 400,
      body: { error: 'No', code: MatchingErrorCode.LikeSelf, requestId: 'r2' },
    });
    expect(toErrorBody(badRequest('Bad input'), 'r3').body.code).toBe(ErrorCode.ValidationFailed);
  });

  it('turns malformed JSON into a 400 with a clear message', () => {
    const err = Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 });
    expect(toErrorBody(err, 'r')).toMatchObject({ status: 400, body: { error: 'Malformed JSON in request body' } });
  });

  it('turns an oversized body into a 413', () => {
    expect(toErrorBody({ type: 'entity.too.large' }, 'r').status).toBe(413);
  });

  it('refuses an unsupported charset or content encoding with a 415, not a 500', () => {
    expect(toErrorBody({ type: 'charset.unsupported', status: 415 }, 'r')).toMatchObject({ status: 415 });
    expect(toErrorBody({ type: 'encoding.unsupported', status: 415 }, 'r')).toMatchObject({ status: 415 });
    expect(toErrorBody({ type: 'request.aborted', status: 400 }, 'r')).toMatchObject({ status: 400 });
  });

  it('hides internal errors behind a generic 500 body', () => {
    const { status, body } = toErrorBody(new Error('db password is x'), 'r9');
    expect(status).toBe(500);
    expect(body.error).not.toContain('password');
    expect(body.requestId).toBe('r9');
  });

  it('uses the first validation message as error', () => {
    const err = new BadRequestException({ error: 'email must be an email', code: ErrorCode.ValidationFailed, details: ['email must be an email', 'x'] });
    expect(toErrorBody(err, undefined).body).toMatchObject({ error: 'email must be an email', details: ['email must be an email', 'x'] });
  });

  it('answers unknown routes with a JSON 404', () => {
    expect(toErrorBody(new NotFoundException('Cannot GET /nope'), 'r').body.error).toBe('Not found');
  });

  it('answers any other refusal of the request by the parsers with its 4xx, never a 500', () => {
    // What body-parser passed on for `Content-Encoding: gzip` on a body that was not gzip: a 500 before issue 7.
    let inflateError: unknown;
    try {
      gunzipSync(Buffer.from('{"email":"a@b.co"}'));
    } catch (e) {
      // body-parser wraps it with http-errors: status 400, expose true, no type.
      inflateError = Object.assign(e as Error, { status: 400, statusCode: 400, expose: true });
    }
    expect(toErrorBody(inflateError, 'r')).toMatchObject({ status: 400, body: { error: BodyErrorMessages.unreadable, code: ErrorCode.ValidationFailed } });
    // The router's undecodable path parameter.
    const undecodable = Object.assign(new URIError("Failed to decode param '%E0'"), { status: 400 });
    expect(toErrorBody(undecodable, 'r').status).toBe(400);
    expect(toErrorBody({ type: 'entity.too.deep', status: 400, message: 'too deep' }, 'r')).toMatchObject({ status: 400, body: { error: 'too deep' } });
  });

  it("keeps an outgoing call's error a 500 even when it carries another server's 4xx status", () => {
    const upstream = Object.assign(new Error('Request failed with status code 404'), { status: 404 });
    expect(toErrorBody(upstream, 'r').status).toBe(500);
  });
});

describe('the validation pipe', () => {
  class EmailDto {
    @IsEmail({}, { message: 'Please enter a valid email address' }) email!: string;
  }

  it("answers what the validators throw on the request's own values (URIError on a lone surrogate) with a 400", async () => {
    const pipe = createValidationPipe();
    const refused = await pipe.transform({ email: '\ud800@example.com' }, { type: 'body', metatype: EmailDto }).catch((e: unknown) => e);
    expect(toErrorBody(refused, 'r')).toMatchObject({ status: 400, body: { error: UNREADABLE_INPUT_MESSAGE, code: ErrorCode.ValidationFailed } });
    await expect(pipe.transform({ email: 'a@b.co' }, { type: 'body', metatype: EmailDto })).resolves.toEqual({ email: 'a@b.co' });
  });
});

describe('GlobalErrorFilter logging', () => {
  function answer(exception: unknown) {
    const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
    const logger = {
      warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', fields, msg }),
      error: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'error', fields, msg }),
    } as unknown as Logger;
    const res = { headersSent: false, statusCode: 0, body: undefined as unknown, headers: {} as Record<string, string> };
    const response = {
      get headersSent() {
        return res.headersSent;
      },
      setHeader: (name: string, value: string) => (res.headers[name] = value),
      status(code: number) {
        res.statusCode = code;
        return this;
      },
      json(body: unknown) {
        res.body = body;
        res.headersSent = true;
      },
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ headers: {}, path: '/api/x' }) }),
    } as unknown as ArgumentsHost;
    new GlobalErrorFilter(logger).catch(exception, host);
    return { lines, res };
  }

  it('logs a 5xx the service chose (busy, retry later) as one warning with its code, not as an unhandled error', () => {
    const busy = new AppException('Service temporarily unavailable', ErrorCode.ServiceUnavailable, HttpStatus.SERVICE_UNAVAILABLE);
    const { lines, res } = answer(busy);
    expect(res.statusCode).toBe(503);
    expect(lines).toEqual([{ level: 'warn', fields: expect.objectContaining({ code: ErrorCode.ServiceUnavailable, status: 503 }), msg: 'refused by the service' }]);
  });

  it('logs anything unplanned as an unhandled error with the error itself', () => {
    const failure = new Error('connection terminated');
    const { lines, res } = answer(failure);
    expect(res.statusCode).toBe(500);
    expect(lines).toEqual([{ level: 'error', fields: expect.objectContaining({ err: failure, path: '/api/x' }), msg: 'unhandled error' }]);
  });
});
