import { Module } from '@nestjs/common';
import { PreferencesModule } from '../preferences/preferences.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { ProfileRepublisher } from './profile-republisher';

/** The `republish` command's work (main.ts): no routes. */
@Module({
  imports: [ProfilesModule, PreferencesModule],
  providers: [ProfileRepublisher],
  exports: [ProfileRepublisher],
})
export class RepublishModule {}
