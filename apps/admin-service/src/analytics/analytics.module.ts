import { Module } from '@nestjs/common';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsEventsRepository } from './analytics-events.repository';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';

/** The seven analytics calls of spec 001 §7 over admin-service's own event store. */
@Module({
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AnalyticsRepository, AnalyticsEventsRepository],
  exports: [AnalyticsEventsRepository, AnalyticsService],
})
export class AnalyticsModule {}
