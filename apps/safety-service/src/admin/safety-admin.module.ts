import { Module } from '@nestjs/common';
import { AdminReportsController } from './admin-reports.controller';
import { AdminReportsService } from './admin-reports.service';
import { ReportAdminWorker } from './report-admin.worker';
import { ReportsRepository } from '../safety/reports.repository';

/** safety-service's side of the admin area (issue 13): reports for admin-service, and its resolutions. */
@Module({
  controllers: [AdminReportsController],
  providers: [AdminReportsService, ReportsRepository, ReportAdminWorker],
})
export class SafetyAdminModule {}
