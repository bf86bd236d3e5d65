import type { DynamicModule } from '@nestjs/common';
import { AppModule } from '../../app.module';
import { DEFAULT_PRESENCE_SETTINGS, PRESENCE_SETTINGS, type PresenceSettings } from '../presence';

/** The gateway's module with its presence TTL set (tests wait for a dead instance's key to expire). */
export function presenceGatewayModule(env: Partial<Record<string, string>> | undefined, ttlMs: number, hashTtlMs = DEFAULT_PRESENCE_SETTINGS.hashTtlMs): DynamicModule {
  const module = AppModule.forRoot(env);
  const settings: PresenceSettings = { ttlMs, hashTtlMs };
  return { ...module, providers: [...(module.providers ?? []), { provide: PRESENCE_SETTINGS, useValue: settings }] };
}
