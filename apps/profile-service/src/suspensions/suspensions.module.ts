import { Module } from '@nestjs/common';
import { SuspendedMembers } from './suspended-members';

/** auth-service's suspension state (user.suspended, user.unsuspended), read where a member looks at another. */
@Module({
  providers: [SuspendedMembers],
  exports: [SuspendedMembers],
})
export class SuspensionsModule {}
