import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ErrorCode, REQUEST_ID_HEADER } from '@mate/contracts';
import { ALLOW_UNVERIFIED, IS_PUBLIC } from '../auth/decorators';
import { ErrorBodyDto } from './api-docs';
import { METRICS_PATH } from '../metrics/http-metrics';

/** Where each service serves its own document (internal: not under /api, so the gateway never proxies it). */
export const OPENAPI_PATH = '/openapi.json';
/** Name of the bearer scheme in every document. */
export const BEARER_AUTH = 'bearer';
export const API_VERSION = '1';

/** Express routes the kit adds to every process; they are not part of the API. */
export const INFRASTRUCTURE_PATHS = [METRICS_PATH, OPENAPI_PATH];

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

export interface ControllerRoute {
  method: HttpMethod;
  /** As Express matches it: `/api/profile/:userId`. */
  path: string;
  /** As OpenAPI writes it: `/api/profile/{userId}`. */
  openApiPath: string;
  controller: string;
  handler: string;
  isPublic: boolean;
  /** Serves a member whose email is not verified yet (`@AllowUnverified()`). */
  allowsUnverified: boolean;
  /** Left out of the documents on purpose (`@ApiExcludeController` / `@ApiExcludeEndpoint`). */
  excluded: boolean;
}

/** Metadata keys of `@ApiExcludeController()` / `@ApiExcludeEndpoint()` (the package does not export its constants). */
const EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';
const EXCLUDE_ENDPOINT = 'swagger/apiExcludeEndpoint';

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.HEAD]: 'head',
  [RequestMethod.OPTIONS]: 'options',
};

function joinPath(...parts: string[]): string {
  return `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

/** `:param` and `*wildcard` (path-to-regexp 8) as OpenAPI's `{param}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [value === undefined ? '' : String(value)]);

/**
 * Every route the application's controllers declare, read from Nest's own metadata (one entry
 * per path when a controller or handler has several), with whether it is public and whether it
 * is deliberately undocumented.
 */
export function listControllerRoutes(app: INestApplication): ControllerRoute[] {
  const scanner = new MetadataScanner();
  const routes: ControllerRoute[] = [];
  const seen = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const controllerPaths = asList(Reflect.getMetadata(PATH_METADATA, controller));
      const controllerExcluded = Boolean((Reflect.getMetadata(EXCLUDE_CONTROLLER, controller) as boolean[] | undefined)?.[0]);
      const controllerPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
      const controllerUnverified = Reflect.getMetadata(ALLOW_UNVERIFIED, controller) === true;
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name] as object;
        const handlerPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (handlerPath === undefined) continue;
        const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        if (!method) continue;
        const excluded =
          controllerExcluded || (Reflect.getMetadata(EXCLUDE_ENDPOINT, handler) as { disable?: boolean } | undefined)?.disable === true;
        const isPublic = controllerPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true;
        const allowsUnverified = isPublic || controllerUnverified || Reflect.getMetadata(ALLOW_UNVERIFIED, handler) === true;
        for (const base of controllerPaths) {
          for (const own of asList(handlerPath)) {
            const path = joinPath(base, own);
            routes.push({
              method,
              path,
              openApiPath: toOpenApiPath(path),
              controller: controller.name,
              handler: name,
              isPublic,
              allowsUnverified,
              excluded,
            });
          }
        }
      }
    }
  }
  return routes;
}

/** What Express will actually answer, from its router: `GET /api/profile/:userId`, ... */
export function listRegisteredRoutes(app: INestApplication): { method: HttpMethod; path: string }[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] } };
  const routes: { method: HttpMethod; path: string }[] = [];
  for (const layer of express.router?.stack ?? []) {
    if (!layer.route) continue;
    for (const path of asList(layer.route.path)) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.push({ method: method as HttpMethod, path });
      }
    }
  }
  return routes;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
});

/**
 * The service's OpenAPI document from its controllers and DTOs. Security follows `@Public()`, the
 * same flag the guard reads, so the document cannot claim a route is open when it is not: every
 * other operation requires the bearer token and answers 401 with the error body, and 403 too
 * unless `@AllowUnverified()` (an account whose email is not verified, EMAIL_NOT_VERIFIED).
 */
export function createServiceDocument(app: INestApplication, service: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(`Mate ${service}`)
    .setDescription(`The HTTP API ${service} serves behind the gateway. Errors are \`{ error, code, requestId }\`.`)
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_AUTH)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorBodyDto],
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  for (const route of listControllerRoutes(app)) {
    const operation = route.excluded ? undefined : document.paths[route.openApiPath]?.[route.method];
    if (!operation) continue;
    operation.security = route.isPublic ? [] : [{ [BEARER_AUTH]: [] }];
    if (!route.isPublic) operation.responses['401'] ??= errorResponse('No valid bearer token or no live session');
    if (!route.allowsUnverified) operation.responses['403'] ??= errorResponse("The account's email is not verified yet (EMAIL_NOT_VERIFIED)");
  }
  return document;
}

/**
 * What keeps a document from describing the service: a served route with no operation, an
 * operation without a 2xx answer, or an operation nothing serves. Empty when all is documented.
 */
export function documentationGaps(app: INestApplication, document: OpenAPIObject): string[] {
  const declared = listControllerRoutes(app);
  const excluded = new Set(declared.filter((r) => r.excluded).map((r) => `${r.method} ${r.path}`));
  const registered = listRegisteredRoutes(app).filter(
    (r) => !INFRASTRUCTURE_PATHS.includes(r.path) && !excluded.has(`${r.method} ${r.path}`),
  );
  const gaps: string[] = [];
  const served = new Set<string>();
  for (const route of registered) {
    const openApiPath = toOpenApiPath(route.path);
    served.add(`${route.method} ${openApiPath}`);
    const operation = document.paths[openApiPath]?.[route.method];
    const name = `${route.method.toUpperCase()} ${route.path}`;
    if (!operation) {
      gaps.push(`${name} is served but not documented`);
      continue;
    }
    if (!Object.keys(operation.responses ?? {}).some((status) => /^2\d\d$/.test(status))) {
      gaps.push(`${name} documents no 2xx response`);
    }
  }
  for (const { method, path } of operationsOf(document)) {
    if (!served.has(`${method} ${path}`)) gaps.push(`${method.toUpperCase()} ${path} is documented but not served`);
  }
  return gaps;
}

const OPERATION_METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Every operation of a document with its method and path. */
export function operationsOf(document: OpenAPIObject): { method: HttpMethod; path: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    OPERATION_METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as OperationObject })),
  );
}

/** `POST /api/auth/login`, ...: the operations a document marks as needing no token. */
export function publicOperations(document: OpenAPIObject): string[] {
  return operationsOf(document)
    .filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0)
    .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
}

/**
 * `GET /openapi.json`: the document, built on first request (after Nest registered its routes)
 * and kept, since routes do not change while a process runs.
 */
export function openApiHandler(app: INestApplication, service: string, logger: Logger): RequestHandler {
  let document: string | null = null;
  return (req, res) => {
    try {
      document ??= JSON.stringify(createServiceDocument(app, service));
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(document);
    } catch (err) {
      logger.error({ err }, 'OpenAPI document could not be built');
      res.status(500).json({ error: 'OpenAPI document unavailable', code: ErrorCode.Internal, requestId: req.headers[REQUEST_ID_HEADER] });
    }
  };
}
