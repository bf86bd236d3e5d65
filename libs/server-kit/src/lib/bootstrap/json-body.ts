import express, { type RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from '@mate/contracts';
import { badRequest } from '../errors/app.exception';
import { toErrorBody } from '../errors/error.filter';

/**
 * Deepest nesting of objects and arrays a JSON body may have. The deepest DTO is three levels;
 * without a limit a 7 KB body of 3,500 brackets overflowed the stack in class-transformer.
 */
export const MAX_JSON_DEPTH = 32;
export const JSON_BODY_LIMIT = '100kb';

export const JsonBodyMessages = {
  tooDeep: `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
  invalidText: 'Text in the request body must be valid Unicode (a lone surrogate such as \\ud800 is not)',
  unknownField: (path: string) => `Unknown field: ${path}`,
} as const;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

/** Keys that reach prototypes when a body is merged or assigned: never a field of ours. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * The nesting depth of a JSON text, counted on its bytes before it is parsed (brackets inside
 * strings do not count). One pass, no allocation: cheap next to the parse it protects.
 */
export function jsonDepthExceeds(raw: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * What is wrong with a parsed body, if anything: a prototype key anywhere (an unknown field, as
 * the validation pipe says of any other), or a string or key holding a lone UTF-16 surrogate,
 * which is not text (validator's isEmail threw URIError on one).
 */
export function hostileJsonProblem(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : JsonBodyMessages.invalidText;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = hostileJsonProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isWellFormed(key)) return JsonBodyMessages.invalidText;
    if (PROTOTYPE_KEYS.has(key)) return JsonBodyMessages.unknownField(at);
    const problem = hostileJsonProblem((value as Record<string, unknown>)[key], at);
    if (problem) return problem;
  }
  return undefined;
}

/** The error body-parser passes on when `verify` refuses a body (status and type kept). */
class BodyTooDeepError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
  constructor() {
    super(JsonBodyMessages.tooDeep);
  }
}

/**
 * The services' JSON body parser: at most 100 KB, objects and arrays only, no more than
 * MAX_JSON_DEPTH levels, no prototype keys, well-formed text, and no Content-Encoding (415: no
 * client compresses requests, and an inflate error used to surface as a 500). Every refusal is
 * a 4xx with the usual `{ error }` body.
 */
export function jsonBodyParser(): RequestHandler {
  const parser = express.json({
    limit: JSON_BODY_LIMIT,
    strict: true,
    inflate: false,
    verify: (_req, _res, raw) => {
      if (jsonDepthExceeds(raw, MAX_JSON_DEPTH)) throw new BodyTooDeepError();
    },
  });
  return (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      const requestId = req.headers[REQUEST_ID_HEADER] as string | undefined;
      if (err) {
        const { status, body } = toErrorBody(err, requestId);
        res.status(status).json(body);
        return;
      }
      const problem = hostileJsonProblem(req.body);
      if (problem) {
        const { status, body } = toErrorBody(badRequest(problem), requestId);
        res.status(status).json(body);
        return;
      }
      next();
    });
}
