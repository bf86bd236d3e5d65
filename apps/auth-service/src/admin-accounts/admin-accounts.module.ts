import { Module } from '@nestjs/common';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminAccountsService } from './admin-accounts.service';
import { AccountsModule } from '../accounts/accounts.module';

/** auth-service's side of the admin area's reads (issue 13): accounts for admin-service. */
@Module({
  imports: [AccountsModule],
  controllers: [AdminAccountsController],
  providers: [AdminAccountsService],
})
export class AdminAccountsModule {}
