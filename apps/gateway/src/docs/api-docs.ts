import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { DEPLOYED_SERVICES } from '@mate/contracts';
import type { GatewayEnv } from '../gateway.env';
import { serviceUrls } from '../proxy/routes';
import { CombinedApiDocument, combineDocuments, type DocsTarget } from './combined-document';

/** The docs page, and the combined document as JSON. Both public: they describe the public API. */
export const DOCS_PATH = '/api/docs';
export const DOCS_JSON_PATH = '/api/docs/openapi.json';

/** The services whose documents are combined: the deployed ones the gateway has a URL for. */
export function docsTargets(env: GatewayEnv): DocsTarget[] {
  const urls = serviceUrls(env);
  return DEPLOYED_SERVICES.flatMap((s) => (urls[s.name] ? [{ service: s.name, url: urls[s.name] as string }] : []));
}

/**
 * Serves Swagger UI at /api/docs and the combined document at /api/docs/openapi.json. Must be
 * mounted before the edge, which answers every other /api path.
 */
export function mountApiDocs(app: NestExpressApplication, env: GatewayEnv, logger: Logger): CombinedApiDocument {
  const combined = new CombinedApiDocument(docsTargets(env), logger);
  SwaggerModule.setup(DOCS_PATH, app, combineDocuments([]), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Mate API',
    // The page and the JSON always show the latest combined document, not the one given above.
    patchDocumentOnRequest: () => combined.document(),
  });
  return combined;
}
