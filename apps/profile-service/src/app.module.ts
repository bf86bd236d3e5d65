import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { ProfileExporter } from './member-data/profile-exporter';
import { ProfileMemberDataModule } from './member-data/profile-member-data.module';
import { ProfileEnv } from './profile.env';
import { Photo } from './photos/photo.entity';
import { PhotosModule } from './photos/photos.module';
import { PhotoReviewModule } from './photos/review/photo-review.module';
import { Preferences } from './preferences/preferences.entity';
import { PreferencesModule } from './preferences/preferences.module';
import { Profile } from './profiles/profile.entity';
import { ProfileEventHandlers } from './profiles/profile-event.handlers';
import { ProfilesModule } from './profiles/profiles.module';
import { RepublishModule } from './republish/republish.module';
import { PROFILE_MIGRATIONS } from './migrations';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.profile,
      envClass: ProfileEnv,
      env,
      entities: [Profile, Photo, Preferences],
      migrations: PROFILE_MIGRATIONS,
      // Photos first: its `/api/profile/me/photos` routes are more specific than `/api/profile/:userId`.
      features: [
        PhotosModule,
        PhotoReviewModule,
        PreferencesModule,
        ProfilesModule,
        RepublishModule,
        ProfileMemberDataModule,
        MemberDataModule.forExporter(ProfileExporter, { imports: [ProfilesModule, PreferencesModule, PhotosModule] }),
      ],
      handlers: ProfileEventHandlers,
      // auth-service's suspensions (user.suspended, user.unsuspended) and safety's block state
      // (user.blocked, user.unblocked): the kit's projections, read by MemberSuspensions and
      // PairStates where a member looks at another.
      projections: ['suspension', 'pair'],
    });
  }
}
