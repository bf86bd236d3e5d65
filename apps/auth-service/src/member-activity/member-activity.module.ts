import { Module } from '@nestjs/common';
import { MemberActivityConsumer } from './member-activity.consumer';

/** The member activity stream's consumer (issue 13): member.active and the account's last activity. */
@Module({
  providers: [MemberActivityConsumer],
  exports: [MemberActivityConsumer],
})
export class MemberActivityModule {}
