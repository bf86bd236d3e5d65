import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ErrorCode } from '@mate/contracts';
import { conflict } from './app.exception';
import { toErrorBody } from './error.filter';

describe('toErrorBody', () => {
  it('keeps a rule violation as status, code and message', () => {
    expect(toErrorBody(conflict('Taken', ErrorCode.EmailTaken), 'r1')).toEqual({
      status: 409,
      body: { error: 'Taken', code: ErrorCode.EmailTaken, requestId: 'r1' },
    });
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
});
