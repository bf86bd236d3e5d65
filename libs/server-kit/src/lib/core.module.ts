import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Provider, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { RedisClient } from './redis/redis';
import type { ServiceName } from '@mate/contracts';
import { BaseServiceEnv, loadEnv, SERVICE_ENV } from './config/config';
import { createLogger, LOGGER } from './logging/logger';
import { createQueueConnection, createRedis, QUEUE_CONNECTION, REDIS } from './redis/redis';
import { SessionStore } from './auth/session-store';
import { JwtStrategy } from './auth/jwt.strategy';
import { SessionAuthGuard } from './auth/auth.guard';
import { HealthController, HealthRegistry, redisConnectionCheck } from './health/health';
import { CLOCK, systemClock } from './clock';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface CoreOptions<E extends BaseServiceEnv> {
  service: ServiceName;
  envClass: Type<E>;
  /** Values that win over process.env (tests run several services in one process). */
  env?: Partial<Record<keyof E, string>>;
}

function envSource(overrides?: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { ...process.env, ...(overrides ?? {}) };
}

class RedisLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(QUEUE_CONNECTION) private readonly queueConnection: RedisClient,
    private readonly health: HealthRegistry,
  ) {
    this.health.register('redis', async () => {
      await this.redis.ping();
    });
    // The kit's shared BullMQ connection (the pruning scheduler, queue counts for /metrics); the
    // relay and each worker have their own, and a running worker has its own `queue:<name>` check.
    this.health.register('queues', redisConnectionCheck(this.queueConnection));
  }
  async onApplicationShutdown() {
    await Promise.allSettled([this.redis.quit(), this.queueConnection.quit()]);
  }
}

/**
 * What every service needs, once: validated settings, pino, Redis, session-aware authentication
 * as a global guard, health endpoints and an injectable clock.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot<E extends BaseServiceEnv>(options: CoreOptions<E>): DynamicModule {
    const env = loadEnv(options.envClass, envSource(options.env as Record<string, string>));
    const providers: Provider[] = [
      { provide: SERVICE_NAME, useValue: options.service },
      { provide: SERVICE_ENV, useValue: env },
      { provide: options.envClass, useValue: env },
      { provide: LOGGER, useFactory: () => createLogger(options.service, env.LOG_LEVEL) },
      { provide: REDIS, useFactory: () => createRedis(env) },
      { provide: QUEUE_CONNECTION, useFactory: () => createQueueConnection(env) },
      { provide: SessionStore, useFactory: (redis: RedisClient) => new SessionStore(redis, env.KEY_PREFIX), inject: [REDIS] },
      { provide: CLOCK, useValue: systemClock },
      HealthRegistry,
      RedisLifecycle,
      JwtStrategy,
      { provide: APP_GUARD, useClass: SessionAuthGuard },
    ];
    return {
      module: CoreModule,
      controllers: [HealthController],
      providers,
      exports: [SERVICE_NAME, SERVICE_ENV, options.envClass, LOGGER, REDIS, QUEUE_CONNECTION, SessionStore, CLOCK, HealthRegistry],
    };
  }
}
