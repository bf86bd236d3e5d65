import { Module } from '@nestjs/common';
import { PhotosModule } from '../photos/photos.module';
import { PreferencesModule } from '../preferences/preferences.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { ProfileErasure } from './profile-erasure';

/** Erasing a member (`user.deleted`); the export part is served by the kit's MemberDataModule. */
@Module({
  imports: [ProfilesModule, PhotosModule, PreferencesModule],
  providers: [ProfileErasure],
  exports: [ProfileErasure],
})
export class ProfileMemberDataModule {}
