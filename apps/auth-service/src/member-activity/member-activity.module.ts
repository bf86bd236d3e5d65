import { Module } from '@nestjs/common';
import { MemberActivityConsumer } from './member-activity.consumer';
import { MemberActivityRepository } from './member-activity.repository';

/** The member activity stream's consumer (issue 13): member.active and the account's last activity. */
@Module({
  providers: [MemberActivityConsumer, MemberActivityRepository],
  exports: [MemberActivityConsumer, MemberActivityRepository],
})
export class MemberActivityModule {}
