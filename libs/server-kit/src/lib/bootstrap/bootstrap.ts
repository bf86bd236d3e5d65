import 'reflect-metadata';
import type { DynamicModule, INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, SERVICES } from '@mate/contracts';
import { BaseServiceEnv, ConfigError, SERVICE_ENV } from '../config/config';
import { createLogger, LOGGER, PinoNestLogger, requestLoggingMiddleware } from '../logging/logger';
import { GlobalErrorFilter, toErrorBody } from '../errors/error.filter';
import { createValidationPipe } from '../errors/validation';
import { SERVICE_NAME } from '../core.module';
import { collectProcessMetrics } from '../metrics/metrics';
import { httpMetricsMiddleware, METRICS_PATH, metricsHandler } from '../metrics/http-metrics';
import { OPENAPI_PATH, openApiHandler } from '../openapi/openapi';
import { installClientErrorHandler, installExpectationHandler } from './client-errors';
import { internalTrustMiddleware } from './internal-trust';
import { jsonBodyParser } from './json-body';
import { nulTextMiddleware } from './nul-text';

export interface HttpOptions {
  /** Origins allowed by CORS; none when omitted (services sit behind the gateway). */
  corsOrigins?: string[];
  /** false leaves bodies unparsed (the gateway streams them through). */
  parseBodies?: boolean;
  /** Express middleware that runs before Nest's routes (the gateway's proxy). */
  beforeRoutes?: (app: NestExpressApplication) => void;
  /**
   * The edge clients reach (the gateway; the default for the service named gateway): it believes
   * `X-Forwarded-*` as `TRUST_PROXY` says and never accepts the internal credential. Every other
   * service believes `X-Forwarded-*` only from a caller with `INTERNAL_TOKEN` (ADR 0009).
   */
  edge?: boolean;
}

/** The same HTTP behaviour for every service, in production and in tests. */
export function configureHttp(app: NestExpressApplication, options: HttpOptions = {}): Logger {
  const logger = app.get<Logger>(LOGGER);
  app.useLogger(new PinoNestLogger(logger));
  app.disable('x-powered-by');
  const env = app.get<BaseServiceEnv>(SERVICE_ENV);
  const trust = env.TRUST_PROXY.trim();
  app.set('trust proxy', trust === 'false' ? false : trust === 'true' ? true : /^\d+$/.test(trust) ? Number(trust) : trust);
  installClientErrorHandler(app.getHttpServer());
  installExpectationHandler(app.getHttpServer());
  app.use(requestLoggingMiddleware(logger));
  const service = app.get<string>(SERVICE_NAME);
  // Before anything reads req.ip or the credential could reach a handler.
  app.use(internalTrustMiddleware(env.INTERNAL_TOKEN, { edge: options.edge ?? service === SERVICES.gateway }));
  collectProcessMetrics();
  app.use(httpMetricsMiddleware(service));
  // Before the gateway's edge and Nest's routes; never under /api, so the gateway cannot proxy them.
  const internal = app.getHttpAdapter().getInstance() as Express;
  internal.get(METRICS_PATH, metricsHandler(logger, env.METRICS_TOKEN));
  internal.get(OPENAPI_PATH, openApiHandler(app, service, logger));
  if (options.corsOrigins?.length) {
    app.enableCors({
      origin: options.corsOrigins,
      credentials: false,
      exposedHeaders: [REQUEST_ID_HEADER, 'Retry-After', 'X-Total-Count', 'X-Has-More'],
      maxAge: 600,
    });
  }
  options.beforeRoutes?.(app);
  // After the gateway's edge, which forwards unchanged: the owning service refuses, for its own
  // routes as for anyone's (ADR 0009, "NUL characters").
  app.use(nulTextMiddleware());
  if (options.parseBodies !== false) {
    // JSON only (uploads are multipart, parsed by their own routes): a form-encoded body is not
    // read, so it fails validation like an empty one.
    app.use(jsonBodyParser());
  }
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new GlobalErrorFilter(logger));
  app.enableShutdownHooks();
  return logger;
}

/** Errors raised by Express middleware (body parsing) before Nest's filters see the request. */
export function installFinalErrorHandler(app: INestApplication) {
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const { status, body } = toErrorBody(err, req.headers[REQUEST_ID_HEADER] as string | undefined);
    res.status(status).json(body);
  });
}

export async function createHttpApp(
  module: DynamicModule,
  options: HttpOptions | ((env: BaseServiceEnv) => HttpOptions) = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, { bufferLogs: true, bodyParser: false });
  configureHttp(app, typeof options === 'function' ? options(app.get<BaseServiceEnv>(SERVICE_ENV)) : options);
  await app.init();
  installFinalErrorHandler(app);
  return app;
}

export async function runMigrations(app: INestApplicationContext): Promise<string[]> {
  const dataSource = app.get(DataSource);
  const done = await dataSource.runMigrations({ transaction: 'each' });
  return done.map((m) => m.name);
}

export type ServiceCommand = (app: INestApplicationContext, args: string[]) => Promise<void>;

export interface BootstrapOptions {
  name: string;
  defaultPort: number;
  /** Builds the root module; called after the command line is read. */
  module: () => DynamicModule;
  http?: (env: BaseServiceEnv) => HttpOptions;
  /** One-off commands: `node main.js <command> [args]` (migrate is built in when a database is used). */
  commands?: Record<string, ServiceCommand>;
}

/**
 * A service's whole `main.ts`: `node main.js` serves HTTP; `node main.js migrate` applies the
 * migrations and exits; other commands run in an application context without workers.
 */
export async function bootstrapService(options: BootstrapOptions): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const bootLogger = createLogger(options.name);
  try {
    if (command) {
      process.env.OUTBOX_RELAY = 'off';
      process.env.WORKERS = 'off';
      const run: ServiceCommand | undefined =
        command === 'migrate'
          ? async (ctx) => {
              const applied = await runMigrations(ctx);
              bootLogger.info({ applied }, applied.length ? 'migrations applied' : 'database is up to date');
            }
          : options.commands?.[command];
      if (!run) {
        const known = ['migrate', ...Object.keys(options.commands ?? {})].join(', ');
        throw new ConfigError(`Unknown command "${command}". Known commands: ${known}`);
      }
      const ctx = await NestFactory.createApplicationContext(options.module(), { logger: ['error', 'warn'] });
      try {
        await run(ctx, args);
      } finally {
        await ctx.close();
      }
      return;
    }
    const app = await createHttpApp(options.module(), options.http ?? {});
    const env = app.get<BaseServiceEnv>(SERVICE_ENV);
    const port = env.PORT ?? options.defaultPort;
    await app.listen(port, env.HOST);
    app.get<Logger>(LOGGER).info({ port }, `${options.name} listening`);
  } catch (e) {
    if (e instanceof ConfigError) {
      bootLogger.fatal(e.message);
      process.stderr.write(`${e.message}\n`);
    } else {
      bootLogger.fatal({ err: e }, `${options.name} failed to start`);
    }
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  }
}
