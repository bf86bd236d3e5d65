import { Module } from '@nestjs/common';
import { ServiceClient } from '@mate/server-kit';
import { AnalyticsModule } from '../analytics/analytics.module';
import { AuditAuthorBackfill } from './audit-author-backfill';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditedCommands } from './audited-command';
import {
  AdminPhotosController,
  AdminQueuesController,
  AdminReportsController,
  AdminStatsController,
  AdminUsersController,
  ResourceIdPipe,
} from './moderation.controller';
import { OwnersClient } from './owners.client';
import { People } from './people';
import { AdminPhotosService } from './photos.service';
import { QueueDashboard } from './queues.service';
import { AdminReportsService } from './reports.service';
import { AdminStatsService } from './stats.service';
import { AdminUsersService } from './users.service';

/** Reports, users, photos, statistics, the audit log and the queue dashboard (spec 001 §7). */
@Module({
  imports: [AnalyticsModule],
  controllers: [AdminReportsController, AdminUsersController, AdminPhotosController, AdminStatsController, AdminQueuesController],
  providers: [
    ServiceClient,
    OwnersClient,
    People,
    AuditedCommands,
    AdminReportsService,
    AdminUsersService,
    AdminPhotosService,
    AdminStatsService,
    AuditService,
    AuditRepository,
    AuditAuthorBackfill,
    ResourceIdPipe,
    QueueDashboard,
  ],
})
export class ModerationModule {}
