import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AccountRepublisher } from './account-republisher';

/** The `republish` command's work (main.ts): no routes. */
@Module({
  imports: [AccountsModule],
  providers: [AccountRepublisher],
  exports: [AccountRepublisher],
})
export class RepublishModule {}
