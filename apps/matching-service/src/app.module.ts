import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { ServiceModule } from '@mate/server-kit';
import { MatchingEnv } from './matching.env';
import { MatchingModule } from './matching/matching.module';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.matching,
      envClass: MatchingEnv,
      env,
      entities: [],
      migrations: [],
      features: [MatchingModule],
    });
  }
}
