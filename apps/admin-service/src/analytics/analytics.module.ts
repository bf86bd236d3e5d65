import { Module } from '@nestjs/common';

/** The seven analytics calls of spec 001 §7 over admin-service's own event store. */
@Module({})
export class AnalyticsModule {}
