import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { GdprModule } from '../gdpr/gdpr.module';
import { AccountAdminWorker } from './account-admin.worker';
import { SuspensionService } from './suspension.service';

/** An admin's commands on accounts, from `jobs.account-admin` (issue 13): suspend, unsuspend, delete. */
@Module({
  imports: [AccountsModule, GdprModule],
  providers: [SuspensionService, AccountAdminWorker],
})
export class AdminCommandsModule {}
