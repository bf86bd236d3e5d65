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
import { CreateMatching1795500000000 } from './migrations/1795500000000-CreateMatching';
import { ImpressionPerViewer1795520000000 } from './migrations/1795520000000-ImpressionPerViewer';
import { BlockedPairs1795600000000 } from './migrations/1795600000000-BlockedPairs';
import { MatchHistory1796400000000 } from './migrations/1796400000000-MatchHistory';
import { SuggestionPoolKeys1796500000000 } from './migrations/1796500000000-SuggestionPoolKeys';
import { MatchingAdminModule } from './admin/matching-admin.module';
import { SafetyModule } from './safety/safety.module';
import { SCORING_ENTITIES, SCORING_MIGRATIONS, ScoringModule } from './scoring';
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
      migrations: [
        CreateMatching1795500000000,
        ...SCORING_MIGRATIONS,
        ImpressionPerViewer1795520000000,
        BlockedPairs1795600000000,
        MatchHistory1796400000000,
        SuggestionPoolKeys1796500000000,
      ],
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
    });
  }
}
