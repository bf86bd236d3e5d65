import express, { type RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from '@mate/contracts';
import { badRequest } from '../errors/app.exception';
import { BodyErrorMessages, toErrorBody } from '../errors/error.filter';
import { containsNul, NulTextMessages } from './nul-text';

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
 * What is wrong with a parsed body, if anything: nesting deeper than MAX_JSON_DEPTH, a prototype
 * key anywhere (an unknown field, as the validation pipe says of any other), a string or key
 * holding a lone UTF-16 surrogate, which is not text (validator's isEmail threw URIError on one),
 * or a NUL (U+0000), which PostgreSQL refuses in text and jsonb (it answered 503).
 * A loop over an explicit stack, not recursion: the parser's byte scan keeps deep bodies out, but
 * this must not overflow the stack if anything deep ever reaches it (a recursive version did, at
 * about 5,000 levels, on a UTF-16 body the scan could not read).
 */
export function hostileJsonProblem(value: unknown): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: node, path, depth } = next;
    if (typeof node === 'string') {
      if (!isWellFormed(node)) return JsonBodyMessages.invalidText;
      if (containsNul(node)) return NulTextMessages.bodyField(path);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return JsonBodyMessages.tooDeep;
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++)
        children.push({ value: node[i], path: `${path}[${i}]`, depth: depth + 1 });
    } else {
      for (const key of Object.keys(node)) {
        const at = path ? `${path}.${key}` : key;
        if (!isWellFormed(key)) return JsonBodyMessages.invalidText;
        if (containsNul(key)) return NulTextMessages.bodyFieldName;
        if (PROTOTYPE_KEYS.has(key)) return JsonBodyMessages.unknownField(at);
        children.push({ value: (node as Record<string, unknown>)[key], path: at, depth: depth + 1 });
      }
    }
    // Reversed onto the stack, so the first problem in document order is the one named.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return undefined;
}

/** An error body-parser passes on when `verify` refuses a body (its status and type are kept). */
class BodyRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type: string,
  ) {
    super(message);
  }
}

/**
 * The services' JSON body parser: at most 100 KB of UTF-8 (415 for any other charset), objects
 * and arrays only, no more than MAX_JSON_DEPTH levels, no prototype keys, well-formed text
 * without NUL characters, and no Content-Encoding (415: no client compresses requests, and an
 * inflate error used to surface as a 500). Every refusal is a 4xx with the usual `{ error }`
 * body, and nothing it does can throw past it: body-parser calls us outside its own try/catch, so
 * a throw here would be uncaught and end the process.
 */
export function jsonBodyParser(): RequestHandler {
  const parser = express.json({
    limit: JSON_BODY_LIMIT,
    strict: true,
    inflate: false,
    verify: (_req, _res, raw, encoding) => {
      // body-parser accepts any utf-* charset, but the depth scan reads UTF-8 bytes: in UTF-7 the
      // brackets are base64, in UTF-16 a character such as U+2200 carries a 0x22 (quote) byte.
      // `encoding` is the charset body-parser is about to decode with, so this is exactly it.
      if (encoding !== 'utf-8')
        throw new BodyRefusedError(BodyErrorMessages.charset, 415, 'charset.unsupported');
      if (jsonDepthExceeds(raw, MAX_JSON_DEPTH))
        throw new BodyRefusedError(JsonBodyMessages.tooDeep, 400, 'entity.too.deep');
    },
  });
  return (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      const requestId = req.headers[REQUEST_ID_HEADER] as string | undefined;
      let refusal: ReturnType<typeof toErrorBody> | undefined;
      try {
        if (err) refusal = toErrorBody(err, requestId);
        else {
          const problem = hostileJsonProblem(req.body);
          if (problem) refusal = toErrorBody(badRequest(problem), requestId);
        }
      } catch {
        refusal = toErrorBody(badRequest(BodyErrorMessages.unreadable), requestId);
      }
      if (refusal) {
        res.status(refusal.status).json(refusal.body);
        return;
      }
      next();
    });
}
