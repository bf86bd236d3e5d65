import { Module } from '@nestjs/common';
import { CandidatesModule } from '../candidates/candidates.module';
import { LikesReceivedController } from './likes-received.controller';
import { LikesReceivedRepository } from './likes-received.repository';
import { LikesReceivedService } from './likes-received.service';

/** "Who liked you": the likes a member received and has not answered yet (issue 25). */
@Module({
  imports: [CandidatesModule],
  controllers: [LikesReceivedController],
  providers: [LikesReceivedService, LikesReceivedRepository],
})
export class LikesReceivedModule {}
