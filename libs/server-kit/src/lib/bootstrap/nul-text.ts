import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from '@mate/contracts';
import { badRequest } from '../errors/app.exception';
import { toErrorBody } from '../errors/error.filter';

/**
 * U+0000 is valid JSON (`"\u0000"`) and a valid query string (`%00`), but PostgreSQL refuses it
 * in text and jsonb. Before the kit refused it, each reached a query and came back as a 503 with
 * an error-level log ("auth-service did not answer"): the client's input reported as our outage.
 */
export const NulTextMessages = {
  bodyField: (path: string) => `Text must not contain NUL characters (field ${path})`,
  bodyFieldName: 'Text must not contain NUL characters (a field name)',
  queryParameter: (name: string) => `Text must not contain NUL characters (query parameter ${name})`,
  queryParameterName: 'Text must not contain NUL characters (a query parameter name)',
  path: 'Text must not contain NUL characters (the URL path)',
  queryString: 'Text must not contain NUL characters (the query string)',
} as const;

export const containsNul = (text: string): boolean => text.includes('\u0000');

/** A NUL percent-encoded, as a URL carries one (Express decodes path and query once). */
export const PERCENT_NUL = /%00/i;
const nulInUrlText = (text: string) => PERCENT_NUL.test(text) || containsNul(text);

/**
 * Where in a JSON-like value the first NUL is: the path of the string holding it ('' for the
 * value itself), with `inKey` when it is in a key; undefined when there is none. An explicit
 * stack, bounded by `maxDepth` (deeper values are not looked into: the caller's own limit).
 */
export function findNul(value: unknown, maxDepth = 64): { path: string; inKey?: true } | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: node, path, depth } = next;
    if (typeof node === 'string') {
      if (containsNul(node)) return { path };
      continue;
    }
    if (node === null || typeof node !== 'object' || depth >= maxDepth) continue;
    if (!Array.isArray(node)) {
      const key = Object.keys(node).find(containsNul);
      if (key !== undefined) return { path: path ? `${path}.${key}` : key, inKey: true };
    }
    const children = Array.isArray(node)
      ? node.map((child: unknown, i) => ({ value: child, path: `${path}[${i}]`, depth: depth + 1 }))
      : Object.entries(node).map(([key, child]) => ({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 }));
    // Reversed onto the stack, so the first NUL in document order is the one named.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return undefined;
}

/**
 * The refusal of a parsed query holding a NUL (flat with Express's simple parser, nested with
 * `qs`), naming the parameter; undefined when none does.
 */
export function nulInQueryProblem(query: unknown): string | undefined {
  const found = findNul(query);
  if (!found) return undefined;
  // `q=a&q=%00` is one parameter, q.
  return found.inKey ? NulTextMessages.queryParameterName : NulTextMessages.queryParameter(found.path.replace(/(\[\d+\])+$/, ''));
}

/** Why this URL is refused (a NUL in its path or query), or undefined. */
export function nulInUrlProblem(url: string, query: () => unknown): string | undefined {
  const mark = url.indexOf('?');
  const pathPart = mark < 0 ? url : url.slice(0, mark);
  if (nulInUrlText(pathPart)) return NulTextMessages.path;
  if (mark < 0 || !nulInUrlText(url.slice(mark + 1))) return undefined;
  // Parsed only when the raw text holds one, to name the parameter (a parser that drops some, as
  // qs does past its parameter limit, still cannot let it through).
  return nulInQueryProblem(query()) ?? NulTextMessages.queryString;
}

/**
 * Refuses a request whose path (so any path parameter) or query string holds a NUL, with 400
 * `{ error }`, before routing: no handler, guard or pipe sees it. JSON bodies are checked by the
 * body parser's walk (`hostileJsonProblem`), keys and values at any depth.
 */
export function nulTextMiddleware(): RequestHandler {
  return (req, res, next) => {
    const problem = nulInUrlProblem(req.originalUrl ?? req.url, () => req.query);
    if (!problem) return next();
    const refusal = toErrorBody(badRequest(problem), req.headers[REQUEST_ID_HEADER] as string | undefined);
    res.status(refusal.status).json(refusal.body);
  };
}
