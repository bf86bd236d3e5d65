import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { CallEnv } from './call.env';
import { CallEventHandlers } from './call/call-event.handlers';
import { CallModule } from './call/call.module';
import { IceModule } from './ice/ice.module';
import { TranscriptionModule } from './transcription/transcription.module';
import { CALL_MIGRATIONS } from './migrations';
import { CallMemberExporter } from './member-data/call-member-exporter';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.call,
      envClass: CallEnv,
      env,
      entities: [],
      migrations: CALL_MIGRATIONS,
      // IceModule first: `ice-servers` is no call id (GET /api/calls/:id).
      features: [
        IceModule,
        TranscriptionModule,
        CallModule,
        MemberDataModule.forExporter(CallMemberExporter, { imports: [CallModule] }),
      ],
      handlers: CallEventHandlers,
      // auth-service's suspensions (user.suspended, user.unsuspended) and safety's pair events
      // (user.blocked, user.unblocked, match.ended): the kit's projections, read by the callable
      // rule; CallEventHandlers adds ending the member's or the pair's calls.
      projections: ['suspension', 'pair'],
    });
  }
}
