import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { CreateSafety1795700000000 } from './migrations/1795700000000-CreateSafety';
import { SafetyUnmatchedBy1796100000000 } from './migrations/1796100000000-SafetyUnmatchedBy';
import { SafetyReportAdmin1796400000000 } from './migrations/1796400000000-SafetyReportAdmin';
import { SafetyPairShown1796500000000 } from './migrations/1796500000000-SafetyPairShown';
import { SafetyAdminModule } from './admin/safety-admin.module';
import { SafetyMemberExporter } from './member-data/safety-member-exporter';
import { SafetyEnv } from './safety.env';
import { SAFETY_ENTITIES } from './safety/safety.entities';
import { SafetyEventHandlers } from './safety/safety-event.handlers';
import { SafetyModule } from './safety/safety.module';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.safety,
      envClass: SafetyEnv,
      env,
      entities: SAFETY_ENTITIES,
      migrations: [CreateSafety1795700000000, SafetyUnmatchedBy1796100000000, SafetyReportAdmin1796400000000, SafetyPairShown1796500000000],
      features: [SafetyModule, SafetyAdminModule, MemberDataModule.forExporter(SafetyMemberExporter, { imports: [SafetyModule] })],
      handlers: SafetyEventHandlers,
    });
  }
}
