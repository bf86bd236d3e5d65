import { Module } from '@nestjs/common';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminAccountsService } from './admin-accounts.service';
import { AccountsRepository } from '../accounts/accounts.repository';

/** auth-service's side of the admin area's reads (issue 13): accounts for admin-service. */
@Module({
  controllers: [AdminAccountsController],
  providers: [AdminAccountsService, AccountsRepository],
})
export class AdminAccountsModule {}
