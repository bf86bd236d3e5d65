import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type Redis from 'ioredis';
import { SERVICE_ENV, type BaseServiceEnv } from '../config/config';
import { SERVICE_NAME } from '../core.module';
import { REDIS } from '../redis/redis';
import { RealtimeEmitter } from './realtime-emitter';
import { JwtStrategy } from '../auth/jwt.strategy';
import { REALTIME_SERVICE, SocketEventBatchHandler, SocketEventRegistry, SocketEventsController } from './socket-event';

/**
 * Realtime for a service: the `RealtimeEmitter` to push to members, and the internal route on
 * which the gateway delivers the client events this service owns to its `@SocketEvent` handlers.
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
          provide: RealtimeEmitter,
          useFactory: (redis: Redis, env: BaseServiceEnv) => new RealtimeEmitter(redis, env.KEY_PREFIX),
          inject: [REDIS, SERVICE_ENV],
        },
        SocketEventRegistry,
        // Its own instance: CoreModule keeps the guard's to itself. Same secret, same SessionStore.
        JwtStrategy,
        SocketEventBatchHandler,
      ],
      exports: [RealtimeEmitter],
    };
  }
}
