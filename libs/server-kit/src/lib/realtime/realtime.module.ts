import { DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { RedisClient } from '../redis/redis';
import { JwtStrategy } from '../auth/jwt.strategy';
import { SERVICE_ENV, type BaseServiceEnv } from '../config/config';
import { SERVICE_NAME } from '../core.module';
import { createRedis } from '../redis/redis';
import { PresenceReader } from './presence-reader';
import { RealtimeEmitter } from './realtime-emitter';
import { REALTIME_SERVICE, SocketEventBatchHandler, SocketEventRegistry, SocketEventsController } from './socket-event';

/**
 * The pushes' own Redis connection, with ioredis auto-pipelining: the XADDs issued in one tick
 * (a message's `new_message` and `message_sent`, the pushes of a batch's items) go to Redis in one
 * write, and those issued while a write is in flight go in the next. Only XADDs run on it, so no
 * blocking command can hold a pipeline up. Same failure behaviour as the service's connection.
 */
export const REALTIME_REDIS = Symbol('REALTIME_REDIS');

@Injectable()
class RealtimeRedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REALTIME_REDIS) private readonly redis: RedisClient) {}
  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Realtime for a service: the `RealtimeEmitter` to push to members, the `PresenceReader` to ask
 * whether they have a connected socket, and the internal route on
 * which the gateway delivers the client events this service owns to its `@SocketEvent` handlers
 * (one event, or a batch of them).
 */
@Module({})
export class RealtimeModule {
  static forRoot(): DynamicModule {
    return {
      module: RealtimeModule,
      imports: [DiscoveryModule],
      controllers: [SocketEventsController],
      providers: [
        { provide: REALTIME_SERVICE, useExisting: SERVICE_NAME },
        {
          provide: REALTIME_REDIS,
          useFactory: (env: BaseServiceEnv) => createRedis(env, { enableAutoPipelining: true }),
          inject: [SERVICE_ENV],
        },
        RealtimeRedisLifecycle,
        {
          provide: RealtimeEmitter,
          useFactory: (redis: RedisClient, env: BaseServiceEnv) => new RealtimeEmitter(redis, env.KEY_PREFIX),
          inject: [REALTIME_REDIS, SERVICE_ENV],
        },
        {
          provide: PresenceReader,
          useFactory: (redis: RedisClient, env: BaseServiceEnv) => new PresenceReader(redis, env.KEY_PREFIX),
          inject: [REALTIME_REDIS, SERVICE_ENV],
        },
        SocketEventRegistry,
        // Its own instance: CoreModule keeps the guard's to itself. Same secret, same SessionStore.
        JwtStrategy,
        SocketEventBatchHandler,
      ],
      exports: [RealtimeEmitter, PresenceReader],
    };
  }
}
