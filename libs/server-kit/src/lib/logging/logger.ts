import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import pino, { type Logger } from 'pino';
import { INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER } from '@mate/contracts';

interface RequestContext {
  requestId: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();

/** The request id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

/** Paths whose values are replaced before a line is written: credentials and tokens never reach logs. */
export const REDACTED_PATHS = [
  'password',
  'newPassword',
  'token',
  'confirmEmail',
  '*.password',
  '*.newPassword',
  '*.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  // The gateway's credential to the services: no code logs headers today; this keeps it so if one does.
  `headers["${INTERNAL_TOKEN_HEADER}"]`,
  `req.headers["${INTERNAL_TOKEN_HEADER}"]`,
  `*.headers["${INTERNAL_TOKEN_HEADER}"]`,
  'body',
  'req.body',
];

/** Fields of database errors that carry the statement's values (password hashes, emails, text). */
const ERROR_FIELDS_WITH_VALUES = ['query', 'parameters', 'driverError', 'detail', 'where'];

/**
 * pino's error serializer, minus the values a failed SQL statement carries, and minus the
 * arguments ioredis attaches to a failed command (`command.args`: a push's message, a job's data,
 * a stored token); the command's name stays.
 */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  for (const field of ERROR_FIELDS_WITH_VALUES) delete out[field];
  const command = out.command as { name?: unknown } | undefined;
  if (command && typeof command === 'object') out.command = { name: command.name };
  return out;
}

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  });
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Express middleware: takes the caller's request id (the gateway sets one) or makes one, echoes
 * it on the response, runs the rest of the request inside its context, and writes one access-log
 * line per request without query strings (tokens travel in some links) or bodies.
 */
export function requestLoggingMiddleware(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const failed = res.statusCode >= 500;
      // Nothing to build when the line would not be written (a production gateway at LOG_LEVEL=warn).
      if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const path = (req.originalUrl ?? req.url).split('?')[0];
      if (path.startsWith('/health')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { requestId, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (failed) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    });
    requestContext.run({ requestId }, next);
  };
}

/** Routes Nest's own log calls to pino so every line is structured. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
