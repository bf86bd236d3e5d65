import { Writable } from 'node:stream';
import pino from 'pino';
import { INTERNAL_TOKEN_HEADER } from '@mate/contracts';
import { REDACTED_PATHS, runWithRequestId, currentRequestId, serializeError } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  const logger = pino(
    {
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    stream,
  );
  return { logger, lines };
}

describe('logger', () => {
  it('never writes passwords, tokens or authorization headers', () => {
    const { logger, lines } = capture();
    logger.info({ password: 'hunter22', token: 'abc', req: { headers: { authorization: 'Bearer x' } } }, 'x');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('abc');
    expect(text).not.toContain('Bearer x');
  });

  it('never writes the internal credential header, wherever the headers are logged', () => {
    const { logger, lines } = capture();
    const headers = { [INTERNAL_TOKEN_HEADER]: 'internal-secret-1', 'x-request-id': 'r-1' };
    logger.info({ req: { headers } }, 'request');
    logger.info({ headers }, 'outgoing call');
    logger.warn({ upstream: { headers } }, 'upstream answered');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('internal-secret-1');
    expect(lines.map((line) => JSON.stringify(line).match(/"x-mate-internal":"\[redacted\]"/) !== null)).toEqual([true, true, true]);
    expect(text).toContain('r-1');
  });

  it('stamps the current request id on every line', () => {
    const { logger, lines } = capture();
    runWithRequestId('req-123', () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0].requestId).toBe('req-123');
    expect(lines[1].requestId).toBeUndefined();
  });

  it('logs a failed SQL statement without its values (password hashes, emails)', () => {
    const { logger, lines } = capture();
    const err = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      query: 'INSERT INTO users (email, password_hash) VALUES ($1, $2)',
      parameters: ['a@b.co', '$argon2id$v=19$m=19456,t=2,p=1$secret'],
      driverError: { detail: 'Key (email)=(a@b.co) already exists.' },
    });
    logger.error({ err }, 'unhandled error');
    const text = JSON.stringify(lines);
    expect(text).toContain('invalid byte sequence');
    expect(text).not.toContain('argon2id');
    expect(text).not.toContain('a@b.co');
  });
});
