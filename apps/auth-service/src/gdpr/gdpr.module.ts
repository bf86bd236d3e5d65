import { Module } from '@nestjs/common';
import { ServiceClient } from '@mate/server-kit';
import { AccountsModule } from '../accounts/accounts.module';
import { MemberActivityModule } from '../member-activity/member-activity.module';
import { AccountDeletionService } from './account-deletion.service';
import { AccountExporter } from './account-exporter';
import { GdprController } from './gdpr.controller';
import { MemberDataExportService } from './member-data-export.service';

/** `/api/gdpr`: the member's data export (gathered from every service) and account deletion (issue 12). */
@Module({
  imports: [AccountsModule, MemberActivityModule],
  controllers: [GdprController],
  providers: [AccountExporter, MemberDataExportService, AccountDeletionService, ServiceClient],
  // An admin's delete command runs the same erasure (admin-commands).
  exports: [AccountDeletionService],
})
export class GdprModule {}
