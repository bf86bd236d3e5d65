import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { ServiceModule } from '@mate/server-kit';
import { AdminEnv } from './admin.env';
import { ANALYTICS_ENTITIES, ANALYTICS_MIGRATIONS } from './analytics/analytics.entities';
import { AnalyticsEventHandlers } from './analytics/analytics-event.handlers';
import { AnalyticsModule } from './analytics/analytics.module';
import { MODERATION_ENTITIES, MODERATION_MIGRATIONS } from './moderation/moderation.entities';
import { ModerationModule } from './moderation/moderation.module';

/**
 * admin-service (issue 13): moderation (reports, users, photos, statistics, audit log, queue
 * dashboard) and analytics (its own event store, fed by every service's domain events).
 */
@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.admin,
      envClass: AdminEnv,
      env,
      entities: [...MODERATION_ENTITIES, ...ANALYTICS_ENTITIES],
      migrations: [...MODERATION_MIGRATIONS, ...ANALYTICS_MIGRATIONS].sort((a, b) => a.name.localeCompare(b.name)),
      features: [ModerationModule, AnalyticsModule],
      handlers: AnalyticsEventHandlers,
    });
  }
}
