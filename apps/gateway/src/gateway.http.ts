import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { LOGGER, SessionStore, type HttpOptions } from '@mate/server-kit';
import { GatewayEnv, uploadDeadlineMs } from './gateway.env';
import { apiResponseHeaders } from './proxy/api-headers';
import { createEdge, EDGE_SETTING } from './proxy/edge';
import { RealtimeServer } from './realtime/realtime.server';
import type { TrustProxy } from './realtime/socket-limits';
import { mountApiDocs } from './docs/api-docs';

/** HTTP options of the gateway: CORS for the two web apps, unparsed bodies, the edge before Nest, socket.io. */
export function gatewayHttp(env: GatewayEnv): HttpOptions {
  return {
    parseBodies: false,
    corsOrigins: env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    beforeRoutes: (app: NestExpressApplication) => {
      limitSlowClients(app.getHttpServer() as Server, env);
      app.use(apiResponseHeaders);
      // Before the edge, which answers every other /api path.
      mountApiDocs(app, env, app.get<Logger>(LOGGER));
      const edge = createEdge({
        env,
        sessions: app.get(SessionStore),
        logger: app.get<Logger>(LOGGER),
      });
      app.use(edge.handler);
      app.set(EDGE_SETTING, edge);
      app.getHttpServer().once('close', () => edge.close());
      // socket.io takes `/socket.io` requests and upgrades before Express (and its access log) sees them.
      const express = app.getHttpAdapter().getInstance() as { get(setting: string): TrustProxy };
      app.get(RealtimeServer).attach(app.getHttpServer(), express.get('trust proxy fn'));
    },
  };
}

/**
 * Node's own deadlines for the gateway's connections. The edge answers a late body itself (a JSON
 * 408 after BODY_TIMEOUT_MS; for uploads, by a deadline scaled to their length, and after
 * UPLOAD_IDLE_TIMEOUT_MS without a byte); these are the backstops: headers must arrive within
 * BODY_TIMEOUT_MS, and a whole request within that plus the deadline of the largest upload,
 * checked every second instead of Node's 30 s. Neither applies to an idle
 * kept-alive connection (keepAliveTimeout, Node's 5 s, does) nor to an upgraded WebSocket, and a
 * socket.io long-poll is a GET whose request is complete at once, however long its answer waits.
 */
function limitSlowClients(server: Server, env: GatewayEnv) {
  server.headersTimeout = env.BODY_TIMEOUT_MS;
  server.requestTimeout = env.BODY_TIMEOUT_MS + uploadDeadlineMs(env, env.UPLOAD_LIMIT_BYTES);
  // A server option that Node reads when the server starts listening (after this); the type
  // declarations know it only as a constructor option.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
}
