import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { LOGGER, REDIS, SessionStore, type HttpOptions } from '@mate/server-kit';
import { GatewayEnv } from './gateway.env';
import { createEdge } from './proxy/edge';
import { RealtimeServer } from './realtime/realtime.server';
import type { TrustProxy } from './realtime/socket-limits';
import { mountApiDocs } from './docs/api-docs';

/** HTTP options of the gateway: CORS for the two web apps, unparsed bodies, the edge before Nest, socket.io. */
export function gatewayHttp(env: GatewayEnv): HttpOptions {
  return {
    parseBodies: false,
    corsOrigins: env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    beforeRoutes: (app: NestExpressApplication) => {
      // Before the edge, which answers every other /api path.
      mountApiDocs(app, env, app.get<Logger>(LOGGER));
      const edge = createEdge({
        env,
        redis: app.get<Redis>(REDIS),
        sessions: app.get(SessionStore),
        logger: app.get<Logger>(LOGGER),
      });
      app.use(edge.handler);
      app.getHttpServer().once('close', () => edge.close());
      // socket.io takes `/socket.io` requests and upgrades before Express (and its access log) sees them.
      const express = app.getHttpAdapter().getInstance() as { get(setting: string): TrustProxy };
      app.get(RealtimeServer).attach(app.getHttpServer(), express.get('trust proxy fn'));
    },
  };
}
