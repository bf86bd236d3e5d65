import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { Candidate } from './candidates/candidate.entity';
import { MatchingEventHandlers } from './candidates/candidate-event.handlers';
import { CandidatesModule } from './candidates/candidates.module';
import { Impression } from './impressions/impression.entity';
import { LikesReceivedModule } from './likes-received/likes-received.module';
import { Match } from './matches/match.entity';
import { MatchingEnv } from './matching.env';
import { MatchingModule } from './matching/matching.module';
import { MatchingExporter } from './member-data/matching-exporter';
import { MatchingMemberDataModule } from './member-data/matching-member-data.module';
import { MATCHING_MIGRATIONS } from './migrations';
import { MatchingAdminModule } from './admin/matching-admin.module';
import { SafetyModule } from './safety/safety.module';
import { SCORING_ENTITIES, ScoringModule } from './scoring';
import { Swipe } from './swipes/swipe.entity';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.matching,
      envClass: MatchingEnv,
      env,
      entities: [Candidate, Swipe, Match, Impression, ...SCORING_ENTITIES],
      migrations: MATCHING_MIGRATIONS,
      features: [
        CandidatesModule,
        SafetyModule,
        MatchingModule,
        LikesReceivedModule,
        MatchingMemberDataModule,
        MatchingAdminModule,
        MemberDataModule.forExporter(MatchingExporter, { imports: [MatchingModule, ScoringModule] }),
      ],
      handlers: MatchingEventHandlers,
      // safety's pair events (user.blocked, user.unblocked, match.ended): the kit's pair projection
      // (`kit_pair`), read by the hard rules of suggestions, likes, passes and rewind;
      // MatchingEventHandlers adds matching's own part (ending the pair's match, forgetting its
      // swipes on an unblock) under the pair's lock.
      projections: ['pair'],
    });
  }
}
