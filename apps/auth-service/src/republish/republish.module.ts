import { Module } from '@nestjs/common';
import { AccountRepublisher } from './account-republisher';

/** The `republish` command's work (main.ts): no routes. */
@Module({
  providers: [AccountRepublisher],
  exports: [AccountRepublisher],
})
export class RepublishModule {}
