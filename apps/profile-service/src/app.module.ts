import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import {
  CoreModule,
  CreateOutbox1763700000000,
  DatabaseModule,
  EventsModule,
  OUTBOX_ENTITIES,
} from '@mate/server-kit';
import { ProfileEnv } from './profile.env';
import { Photo } from './profiles/photo.entity';
import { Profile } from './profiles/profile.entity';
import { ProfileEventHandlers } from './profiles/profile-event.handlers';
import { ProfilesModule } from './profiles/profiles.module';
import { CreateProfiles1795284000000 } from './migrations/1795284000000-CreateProfiles';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: SERVICES.profile, envClass: ProfileEnv, env }),
        DatabaseModule.forRoot({
          entities: [...OUTBOX_ENTITIES, Profile, Photo],
          migrations: [CreateOutbox1763700000000, CreateProfiles1795284000000],
        }),
        ProfilesModule,
        EventsModule.forRoot({ handlers: ProfileEventHandlers, imports: [ProfilesModule] }),
      ],
    };
  }
}
