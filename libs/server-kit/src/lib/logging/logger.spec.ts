import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS, runWithRequestId, currentRequestId } from './logger';

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

  it('stamps the current request id on every line', () => {
    const { logger, lines } = capture();
    runWithRequestId('req-123', () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0].requestId).toBe('req-123');
    expect(lines[1].requestId).toBeUndefined();
  });
});
