import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { CallEnv } from './call.env';
import { CallEventHandlers } from './call/call-event.handlers';
import { CallModule } from './call/call.module';
import { IceModule } from './ice/ice.module';
import { TranscriptionModule } from './transcription/transcription.module';
import { CreateCall1795900000000 } from './migrations/1795900000000-CreateCall';
import { CallMemberErasure1796100000000 } from './migrations/1796100000000-CallMemberErasure';
import { CallMemberSuspension1796200000000 } from './migrations/1796200000000-CallMemberSuspension';
import { CallMemberPicture1796300000000 } from './migrations/1796300000000-CallMemberPicture';
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
      migrations: [
        CreateCall1795900000000,
        CallMemberErasure1796100000000,
        CallMemberSuspension1796200000000,
        CallMemberPicture1796300000000,
      ],
      // IceModule first: `ice-servers` is no call id (GET /api/calls/:id).
      features: [
        IceModule,
        TranscriptionModule,
        CallModule,
        MemberDataModule.forExporter(CallMemberExporter, { imports: [CallModule] }),
      ],
      handlers: CallEventHandlers,
    });
  }
}
