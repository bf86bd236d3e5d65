import { Module } from '@nestjs/common';
import { Geocoder } from '../geocoding/geocoder';
import { LocationBackfill } from './location-backfill';
import { ProfilesController } from './profiles.controller';
import { ProfilesRepository } from './profiles.repository';
import { ProfilesService } from './profiles.service';

/** Profiles: the own profile, onboarding, other members' public profiles, and the auth events. */
@Module({
  controllers: [ProfilesController],
  providers: [ProfilesRepository, ProfilesService, Geocoder, LocationBackfill],
  exports: [ProfilesService, ProfilesRepository],
})
export class ProfilesModule {}
