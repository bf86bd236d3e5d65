import type { OpenAPIObject } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { ErrorCode, type ServiceName } from '@mate/contracts';
import { API_VERSION, BEARER_AUTH, OPENAPI_PATH, operationsOf } from '@mate/server-kit';
import { matchRoute } from '../proxy/routes';

/** How long a combined document is served before the services are asked again. */
export const DOCS_REFRESH_MS = 60_000;
/** Sooner while a service did not answer (it may still be starting). */
export const DOCS_RETRY_MS = 5_000;
/** How long one service may take to hand over its document. */
export const DOCS_FETCH_TIMEOUT_MS = 2_000;

/** The schema name every service's document gives the error body (server-kit's ErrorBodyDto). */
const ERROR_BODY = 'ErrorBodyDto';
const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: Object.values(ErrorCode) },
    requestId: { type: 'string' },
    details: { type: 'array', items: { type: 'string' } },
  },
};
const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY}` } } },
});

/** What the gateway itself may answer on any route, before the service sees the request. */
const GATEWAY_ANSWERS = {
  '429': errorAnswer('Too many requests from this address (gateway limit); `Retry-After` says when to try again'),
  '503': errorAnswer('The owning service is unavailable'),
};
const BODY_TOO_LARGE = errorAnswer('Body over the gateway limit (1 MiB, 11 MiB for uploads)');

export interface ServiceDocument {
  service: ServiceName;
  document: OpenAPIObject;
}

type Schemas = Record<string, unknown>;

/** Points every `$ref` of `value` at the new schema names. */
function renameRefs<T>(value: T, renames: Map<string, string>): T {
  if (!renames.size) return value;
  const text = JSON.stringify(value).replace(/"#\/components\/schemas\/([^"]+)"/g, (whole, name: string) =>
    renames.has(name) ? `"#/components/schemas/${renames.get(name)}"` : whole,
  );
  return JSON.parse(text) as T;
}

const pascal = (service: string) => service.replace(/(^|-)(\w)/g, (_m, _dash, c: string) => c.toUpperCase());

/**
 * One document from the services' own: each service contributes only the paths the gateway
 * routes to it, its schemas (an identical schema is kept once; a different one with a taken name
 * is renamed `<Service>_<Name>`), and each operation gains what the gateway itself may answer.
 * Security comes from the services' documents, which take it from `@Public()`.
 */
export function combineDocuments(parts: ServiceDocument[], unavailable: ServiceName[] = []): OpenAPIObject {
  const schemas: Schemas = { [ERROR_BODY]: ERROR_BODY_SCHEMA };
  const paths: OpenAPIObject['paths'] = {};
  const tags = new Set<string>();

  for (const { service, document } of parts) {
    const own = (document.components?.schemas ?? {}) as Schemas;
    const renames = new Map<string, string>();
    for (const [name, schema] of Object.entries(own)) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema) && name !== ERROR_BODY) {
        renames.set(name, `${pascal(service)}_${name}`);
      }
    }
    const doc = renameRefs(document, renames);
    for (const [name, schema] of Object.entries((doc.components?.schemas ?? {}) as Schemas)) {
      if (name === ERROR_BODY) continue;
      schemas[renames.get(name) ?? name] = schema;
    }
    for (const { method, path, operation } of operationsOf(doc)) {
      if (matchRoute(path)?.service !== service) continue;
      operation.tags = operation.tags?.length ? operation.tags : [service];
      operation.tags.forEach((t) => tags.add(t));
      operation.responses = { ...GATEWAY_ANSWERS, ...(operation.requestBody ? { '413': BODY_TOO_LARGE } : {}), ...operation.responses };
      paths[path] = { ...paths[path], [method]: operation };
    }
  }

  const missing = unavailable.length
    ? `\n\nNot included right now (their documents could not be fetched): ${unavailable.join(', ')}.`
    : '';
  return {
    openapi: '3.0.0',
    info: {
      title: 'Mate API',
      version: API_VERSION,
      description:
        'Every call goes through the gateway. Calls marked with a lock need `Authorization: Bearer <token>` ' +
        '(from `POST /api/auth/login` or `/api/auth/register`) and a live session; the others are public. ' +
        'Errors are always `{ "error": "<message>", "code": "<CODE>", "requestId": "<id>" }`.' +
        missing,
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { [BEARER_AUTH]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: schemas as NonNullable<OpenAPIObject['components']>['schemas'],
    },
  };
}

/** The least the combining relies on: a version string and an object of paths of objects. */
export function isOpenApiDocument(value: unknown): value is OpenAPIObject {
  if (!value || typeof value !== 'object') return false;
  const { openapi, paths, components } = value as Record<string, unknown>;
  const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (typeof openapi !== 'string' || !isRecord(paths)) return false;
  if (components !== undefined && (!isRecord(components) || (components.schemas !== undefined && !isRecord(components.schemas)))) return false;
  return Object.values(paths).every(isRecord);
}

export interface DocsTarget {
  service: ServiceName;
  /** The service's base URL, as the gateway forwards to it. */
  url: string;
}

/**
 * The combined document, fetched from the services on demand and kept for DOCS_REFRESH_MS (they
 * may start after the gateway, and a new version changes its document). A service that does not
 * answer keeps its last document, or is listed as unavailable; the others are served anyway.
 */
export class CombinedApiDocument {
  private cached: { at: number; document: OpenAPIObject; complete: boolean } | null = null;
  private refreshing: Promise<OpenAPIObject> | null = null;
  private readonly lastGood = new Map<ServiceName, OpenAPIObject>();

  constructor(
    private readonly targets: DocsTarget[],
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  document(): Promise<OpenAPIObject> {
    const cached = this.cached;
    if (cached && this.now() - cached.at < (cached.complete ? DOCS_REFRESH_MS : DOCS_RETRY_MS)) return Promise.resolve(cached.document);
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<OpenAPIObject> {
    await Promise.all(
      this.targets.map(async ({ service, url }) => {
        try {
          const res = await fetch(`${url.replace(/\/$/, '')}${OPENAPI_PATH}`, { signal: AbortSignal.timeout(DOCS_FETCH_TIMEOUT_MS) });
          if (!res.ok) throw new Error(`status ${res.status}`);
          const document: unknown = await res.json();
          if (!isOpenApiDocument(document)) throw new Error('not an OpenAPI document');
          this.lastGood.set(service, document);
        } catch (err) {
          this.logger.warn({ service, err: { message: (err as Error).message } }, 'OpenAPI document of a service unavailable');
        }
      }),
    );
    const parts = this.targets.flatMap(({ service }) => {
      const document = this.lastGood.get(service);
      return document ? [{ service, document: structuredClone(document) }] : [];
    });
    const unavailable = this.targets.filter(({ service }) => !this.lastGood.has(service)).map((t) => t.service);
    const document = combineDocuments(parts, unavailable);
    this.cached = { at: this.now(), document, complete: unavailable.length === 0 };
    return document;
  }
}
