import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { ServiceModule } from '@mate/server-kit';
import { SafetyEnv } from './safety.env';
import { SafetyModule } from './safety/safety.module';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.safety,
      envClass: SafetyEnv,
      env,
      entities: [],
      migrations: [],
      features: [SafetyModule],
    });
  }
}
