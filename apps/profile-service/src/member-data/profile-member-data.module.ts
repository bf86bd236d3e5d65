import { Module } from '@nestjs/common';
import { PhotosModule } from '../photos/photos.module';
import { ProfileErasure } from './profile-erasure';

/** Erasing a member (`user.deleted`); the export part is served by the kit's MemberDataModule. */
@Module({
  imports: [PhotosModule],
  providers: [ProfileErasure],
  exports: [ProfileErasure],
})
export class ProfileMemberDataModule {}
