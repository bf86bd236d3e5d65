import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { Express, NextFunction, Request, Response } from 'express';
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
 * The docs page and everything under it may run only its own files: no inline script or style
 * (the page below has none), no other origin, never inside a frame (issue 24 item 9: any site
 * could frame it). `data:` images: swagger-ui.css draws its icons with them. `connect-src 'self'`:
 * "Try it out" calls this gateway.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // The one <style> element Swagger UI renders (the colours of its top bar's SVG logo, swagger-ui-dist
  // 5.32), found with Chromium; after an upgrade that changes it, the logo is drawn in black only.
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web apps' security headers (tools/web-server, ADR 0011) on the docs page, its
 * assets and its JSON; Cache-Control and nosniff come from apiResponseHeaders like every /api answer.
 */
export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/** Files of the page served from swagger-ui-dist (by SwaggerModule) and the page's own stylesheet. */
const ASSET = (file: string) => `${DOCS_PATH}/${file}`;
export const DOCS_STYLESHEET_PATH = ASSET('mate-docs.css');

/**
 * Swagger UI's page without inline code, so the strict policy above holds: SwaggerModule's own
 * page has inline `<style>` blocks and a `style` attribute, which would need `'unsafe-inline'` or
 * hashes that change with every upgrade. Its styles are swagger-ui-dist's `index.css` plus the
 * rule that hides the explorer's URL box, in a stylesheet of ours; the scripts were already files.
 */
const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Mate API</title>
  <link rel="stylesheet" type="text/css" href="${ASSET('swagger-ui.css')}">
  <link rel="stylesheet" type="text/css" href="${DOCS_STYLESHEET_PATH}">
  <link rel="icon" type="image/png" href="${ASSET('favicon-32x32.png')}" sizes="32x32">
  <link rel="icon" type="image/png" href="${ASSET('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSET('swagger-ui-bundle.js')}"></script>
  <script src="${ASSET('swagger-ui-standalone-preset.js')}"></script>
  <script src="${ASSET('swagger-ui-init.js')}"></script>
</body>
</html>
`;

const DOCS_STYLESHEET = `html { box-sizing: border-box; overflow: -moz-scrollbars-vertical; overflow-y: scroll; }
*, *:before, *:after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
`;

function docsSecurityHeaders(_req: Request, res: Response, next: NextFunction) {
  for (const [name, value] of Object.entries(DOCS_SECURITY_HEADERS)) res.setHeader(name, value);
  next();
}

/**
 * Serves Swagger UI at /api/docs and the combined document at /api/docs/openapi.json, with
 * DOCS_SECURITY_HEADERS on all of it. Must be mounted before the edge, which answers every other
 * /api path.
 */
export function mountApiDocs(app: NestExpressApplication, env: GatewayEnv, logger: Logger): CombinedApiDocument {
  const combined = new CombinedApiDocument(docsTargets(env), logger);
  app.use(DOCS_PATH, docsSecurityHeaders);
  // Before SwaggerModule's own routes for the same paths: the first route registered answers.
  const express = app.getHttpAdapter().getInstance() as Express;
  for (const page of [DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/index.html`]) {
    express.get(page, (_req, res) => {
      res.type('text/html').send(DOCS_PAGE);
    });
  }
  express.get(DOCS_STYLESHEET_PATH, (_req, res) => {
    res.type('text/css').send(DOCS_STYLESHEET);
  });
  SwaggerModule.setup(DOCS_PATH, app, combineDocuments([]), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Mate API',
    // The page and the JSON always show the latest combined document, not the one given above.
    patchDocumentOnRequest: () => combined.document(),
    // No badge fetched from validator.swagger.io (another origin, and it would send the document).
    swaggerOptions: { validatorUrl: null },
  });
  return combined;
}
